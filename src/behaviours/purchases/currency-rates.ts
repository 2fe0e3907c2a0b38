// Currency rates as the purchase documents use them: how many units of a currency one unit of
// the company's currency is worth on a day (Odoo's `rate`), the latest rate on or before that
// day, the company's own rates before the shared ones.
import type { Knex } from 'knex';

/** Currency id → rate on `date`: 1 for the company's currency, and for a currency without a rate. */
export async function ratesOn(trx: Knex.Transaction, companyId: number, currencyIds: Iterable<number>, date: string): Promise<Map<number, number>> {
  const wanted = [...new Set([...currencyIds].map(Number))];
  const rates = new Map<number, number>();
  if (wanted.length === 0) return rates;
  const company = await trx('companies').where('id', companyId).first('currency_id');
  // One read per currency other than the company's (a document has one or two), not per line.
  for (const currencyId of wanted) {
    if (currencyId === Number(company?.currency_id)) {
      rates.set(currencyId, 1);
      continue;
    }
    const row = await trx('currency_rates')
      .where('currency_id', currencyId)
      .where('name', '<=', date.slice(0, 10))
      .where((query) => query.where('company_id', companyId).orWhereNull('company_id'))
      .orderBy('name', 'desc')
      .orderByRaw('company_id IS NULL')
      .first('rate');
    const rate = Number(row?.rate ?? 0);
    rates.set(currencyId, rate > 0 ? rate : 1);
  }
  return rates;
}
