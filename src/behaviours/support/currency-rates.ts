// The rate of a currency on a day, the one rule every document uses (sales order lines priced by a
// price list in another currency, purchase orders and their vendor prices, invoices and bills): how
// many units of the currency one unit of the company's currency is worth (Odoo's `rate`).
//
// 1. The company's own currency: 1.
// 2. Otherwise the latest rate on or before the day (dates compared as `YYYY-MM-DD`), among the
//    company's own rates and the shared ones (company_id null); on the same day the company's own
//    rate wins over the shared one.
// 3. A day before the currency's first rate: its earliest rate (the company's first on a tie), never
//    1 between two different currencies once a rate exists.
// 4. A currency without any rate: 1.
// A rate of 0 or below counts as no rate.
//
// One statement per call, however many currencies (and none when every currency asked is the
// company's and the caller knows it): each currency's two candidate rates come from correlated
// subqueries on the (currency_id, name) index, the company's currency from a third.
import type { Knex } from 'knex';
import { companyDayOf } from './company-time-zone.ts';

export interface RatesOptions {
  /** The company's currency when the caller has read it already: its rate is then 1 without reading. */
  companyCurrencyId?: number | null;
}

/** Currency id → its rate on `date` for the company (the rule above); every id asked has one. */
export async function ratesOn(trx: Knex.Transaction, companyId: number, currencyIds: Iterable<number>, date: unknown, options: RatesOptions = {}): Promise<Map<number, number>> {
  const rates = new Map<number, number>();
  const known = options.companyCurrencyId == null ? undefined : Number(options.companyCurrencyId);
  const wanted = [...new Set([...currencyIds].map(Number))].filter((id) => {
    if (id !== known) return true;
    rates.set(id, 1);
    return false;
  });
  if (wanted.length === 0) return rates;

  const day = await companyDayOf(trx, companyId, date);
  // The first rate of the currency in this order: the company's before the shared one on a day.
  const candidate = (latest: boolean) =>
    trx('currency_rates as r')
      .where('r.currency_id', trx.ref('c.id'))
      .where((query) => query.where('r.company_id', companyId).orWhereNull('r.company_id'))
      .where('r.rate', '>', 0)
      .modify((query) => (latest ? query.where('r.name', '<=', day).orderBy('r.name', 'desc') : query.orderBy('r.name', 'asc')))
      .orderByRaw('r.company_id is null')
      .limit(1)
      .select('r.rate');
  const rows: Array<Record<string, unknown>> = await trx('currencies as c')
    .whereIn('c.id', wanted)
    .select(
      'c.id',
      candidate(true).as('latest'),
      candidate(false).as('earliest'),
      trx('companies as co').where('co.id', companyId).select('co.currency_id').as('company_currency_id'),
    );

  for (const row of rows) {
    const id = Number(row.id);
    const rate = Number(row.latest ?? row.earliest ?? 1);
    rates.set(id, id === Number(row.company_currency_id) || !(rate > 0) ? 1 : rate);
  }
  for (const id of wanted) if (!rates.has(id)) rates.set(id, 1); // not a currency at all: as one without rates
  return rates;
}

/** One currency's rate on `date` for the company (see `ratesOn`). */
export async function rateOn(trx: Knex.Transaction, companyId: number, currencyId: number, date: unknown, options: RatesOptions = {}): Promise<number> {
  return (await ratesOn(trx, companyId, [currencyId], date, options)).get(Number(currencyId))!;
}
