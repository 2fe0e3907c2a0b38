// A company's time zone (issue 51, part 3): the business dates that default to "today" are the
// company's local date. Pacific/Kiritimati (UTC+14) and Pacific/Pago_Pago (UTC−11) are 25 hours
// apart, so at any moment their dates differ: a payment or a reversal left without a date is
// dated as the company's people see the calendar, a moment (a purchase order's time) falls on the
// company's day when its currency rate is looked up, and a list's date filter on a moment means
// the company's days (the grouped totals' keys as they bucket it).
import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import { today } from '../../../engine/index.ts';
import { sharedApp, type TestApp } from '../../helpers/app.ts';
import { asAdmin } from '../../helpers/as-admin.ts';
import { databaseTargets } from '../../helpers/targets.ts';

test('today in a zone, at a fixed moment: UTC+14 is already in the new year, UTC−11 still in the old one', () => {
  const moment = new Date('2026-12-31T10:30:00Z');
  assert.is(today('UTC', moment), '2026-12-31');
  assert.is(today('Pacific/Kiritimati', moment), '2027-01-01');
  assert.is(today('Pacific/Pago_Pago', new Date('2027-01-01T05:00:00Z')), '2026-12-31');
  // Across a daylight-saving change: 00:30 in Zurich on the day summer time starts is still that day.
  assert.is(today('Europe/Zurich', new Date('2026-03-28T23:30:00Z')), '2026-03-29');
});
test.run();

for (const target of databaseTargets()) {
  const suiteOf = suite(`company time zones [${target.name}]`);
  let app: TestApp & { token: string };
  const ids: Record<string, number> = {};
  const { call, get, created, post } = asAdmin(() => app);
  const setZone = async (timezone: string | null) => {
    const response = await call('put', `/support/companies/${ids.company}`, { timezone });
    assert.is(response.status, 200, response.text);
    return response.body.data.timezone;
  };
  /** What `run` gave, which must be the zone's date at some moment during it (a day may turn meanwhile). */
  const datedIn = async (zone: string, run: () => Promise<string>) => {
    const before = today(zone);
    const value = await run();
    assert.ok([before, today(zone)].includes(value), `${value} is today in ${zone} (${before})`);
    return value;
  };
  const postedInvoice = async () => {
    const invoice = await created('/accounts/invoices', {
      partner_id: ids.customer,
      currency_id: ids.currency,
      invoice_date: '2026-11-20',
      invoice_date_due: '2026-12-20',
      invoice_lines: [{ product_id: ids.product, uom_id: ids.uom, quantity: 1, price_unit: 50 }],
    });
    await post(`/accounts/invoices/${invoice.id}/confirm`, {});
    return invoice.id as number;
  };

  suiteOf.before(async () => {
    app = await sharedApp(target);
    ids.company = (await get('/support/companies?sort=id')).data[0].id;
    ids.currency = (await get(`/support/companies/${ids.company}`)).data.currency_id;
    const category = (await get('/products/categories?sort=id')).data[0].id;
    const product = await created('/products/products', { type: 'service', name: `Zoned consulting ${target.name}`, price: 50, category_id: category });
    ids.product = product.id;
    ids.uom = product.uom_id;
    ids.customer = (await created('/partners/partners', { account_type: 'company', name: `Zoned customer ${target.name}` })).id;
    ids.vendor = (await created('/partners/partners', { account_type: 'company', name: `Zoned vendor ${target.name}` })).id;
  });
  suiteOf.after(async () => {
    await setZone('UTC');
  });

  suiteOf('a company is at UTC until told otherwise; a zone that does not exist is a 422, nothing changed', async () => {
    assert.is((await get(`/support/companies/${ids.company}`)).data.timezone, 'UTC');
    const refused = await call('put', `/support/companies/${ids.company}`, { timezone: 'Mars/Base' });
    assert.is(refused.status, 422, refused.text);
    assert.equal(refused.body.errors.timezone, ['The timezone field must be a valid timezone (an IANA name such as Europe/Zurich).']);
    assert.is((await get(`/support/companies/${ids.company}`)).data.timezone, 'UTC');
    assert.is(await setZone('Europe/Zurich'), 'Europe/Zurich');
    assert.is(await setZone(null), 'UTC', 'a null sent is the default again');
  });

  suiteOf('a payment and a reversal without a date take the company’s date, east and west of UTC', async () => {
    const dates: string[] = [];
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      await setZone(zone);
      const paid = await postedInvoice();
      dates.push(await datedIn(zone, async () => (await post(`/accounts/invoices/${paid}/pay?include=payments`, {})).data.payments[0].date.slice(0, 10)));
      const reversed = await postedInvoice();
      const note = await post(`/accounts/invoices/${reversed}/reverse`, {}, 201);
      await datedIn(zone, async () => note.data.invoice_date.slice(0, 10));
    }
    assert.is.not(dates[0], dates[1], 'UTC+14 and UTC−11 never share a date');
  });

  suiteOf('a moment falls on the company’s day when its currency rate is looked up', async () => {
    const sek = (await get('/support/currencies?filter[name]=SEK')).data[0].id;
    await created(`/support/currencies/${sek}/rates`, { name: '2026-03-10', rate: 10, company_id: ids.company });
    await created(`/support/currencies/${sek}/rates`, { name: '2026-03-11', rate: 11, company_id: ids.company });
    const order = async () =>
      created('/purchases/purchase-orders', {
        partner_id: ids.vendor,
        currency_id: sek,
        ordered_at: '2026-03-10T20:00:00Z', // 10 March in UTC, already 11 March (10:00) at UTC+14
        lines: [{ product_id: ids.product, product_qty: 1, price_unit: 120 }],
      });
    await setZone('UTC');
    assert.is(Number((await order()).currency_rate), 10);
    await setZone('Pacific/Kiritimati');
    assert.is(Number((await order()).currency_rate), 11);
  });

  suiteOf('a vendor price holds on the company’s day of the order’s moment', async () => {
    const currency = ids.currency;
    const product = (
      await created('/products/products', { type: 'goods', name: `Zoned lamp ${target.name}`, price: 50, category_id: (await get('/products/categories?sort=id')).data[0].id })
    ).id;
    // 9 on any day; 7 only on 11 March.
    await created('/purchases/vendor-price-lists', { partner_id: ids.vendor, product_id: product, currency_id: currency, price: 9 });
    await created('/purchases/vendor-price-lists', {
      partner_id: ids.vendor,
      product_id: product,
      currency_id: currency,
      price: 7,
      starts_at: '2026-03-11',
      ends_at: '2026-03-11',
    });
    const priced = async () => {
      const order = await created('/purchases/purchase-orders?include=lines', {
        partner_id: ids.vendor,
        currency_id: currency,
        ordered_at: '2026-03-10T20:00:00Z', // 10 March in UTC, already 11 March (10:00) at UTC+14
        lines: [{ product_id: product, product_qty: 1 }],
      });
      return Number(order.lines[0].price_unit);
    };
    await setZone('UTC');
    assert.is(await priced(), 9, 'on 10 March the dated price does not hold');
    await setZone('Pacific/Kiritimati');
    assert.is(await priced(), 7, 'on 11 March it does');
  });

  suiteOf('a sales price list rule holds from and until the company’s days its moments fall on', async () => {
    // From midnight in Zurich on 1 December (23:00 UTC on 30 November) until the end of 31 December there.
    const priceList = await created('/sales/price-lists', {
      name: `Zoned December ${target.name}`,
      currency_id: ids.currency,
      rules: [{ product_id: ids.product, compute_price: 'fixed', fixed_price: 40, date_start: '2026-12-01T00:00:00+01:00', date_end: '2026-12-31T23:59:59+01:00' }],
    });
    const priced = async (dateOrder: string) => {
      const order = await created('/sales/orders?include=lines', {
        partner_id: ids.customer,
        price_list_id: priceList.id,
        payment_term_id: (await get('/accounts/payment-terms?sort=id')).data[0].id,
        date_order: dateOrder,
        lines: [{ product_id: ids.product, product_qty: 1 }],
      });
      return Number(order.lines[0].price_unit);
    };
    await setZone('Europe/Zurich');
    assert.is(await priced('2026-11-30'), 50, 'the rule starts on 1 December in Zurich, not on 30 November (its UTC day)');
    assert.is(await priced('2026-12-01'), 40);
    assert.is(await priced('2026-12-31'), 40);
    assert.is(await priced('2027-01-01'), 50);
    await setZone('UTC');
    assert.is(await priced('2026-11-30'), 40, 'in UTC the rule starts on 30 November at 23:00');
  });

  suiteOf('a date filter on a moment means the company’s days, or those of tz; a group’s key lists its records', async () => {
    const vendor = (await created('/partners/partners', { account_type: 'company', name: `Zoned filter vendor ${target.name}` })).id;
    const order = async (orderedAt: string) =>
      (
        await created('/purchases/purchase-orders', {
          partner_id: vendor,
          currency_id: ids.currency,
          ordered_at: orderedAt,
          lines: [{ product_id: ids.product, product_qty: 1, price_unit: 10 }],
        })
      ).id as number;
    // At UTC+14 10:00 UTC is midnight; at UTC-11 11:00 UTC is.
    const [p1, p2, p3, p4] = [
      await order('2026-03-10T09:59:59Z'), // 10 March at UTC+14 (23:59:59), 9 March at UTC-11
      await order('2026-03-10T10:00:00Z'), // 11 March at UTC+14 (00:00), 9 March at UTC-11
      await order('2026-03-10T11:00:00Z'), // 11 March at UTC+14, 10 March at UTC-11 (00:00)
      await order('2026-03-31T12:00:00Z'), // 1 April at UTC+14, 31 March at UTC-11
    ];
    const orders = `/purchases/purchase-orders?filter[partner_id]=${vendor}&sort=id`;
    const listed = async (query: string) => {
      const response = await call('get', `${orders}&${query}`);
      assert.is(response.status, 200, `${query}: ${response.text}`);
      return response.body.data.map((row: { id: number }) => row.id);
    };
    await setZone('Pacific/Kiritimati');
    assert.equal(await listed('filter[ordered_at]=2026-03-10'), [p1]);
    assert.equal(await listed('filter[ordered_at]=2026-03-11'), [p2, p3], 'midnight belongs to the day it starts');
    assert.equal(await listed('filter[ordered_at]=2026-03'), [p1, p2, p3]);
    assert.equal(await listed('filter[ordered_at]=2026-04'), [p4]);
    assert.equal(await listed('filter[ordered_at]=2026-W11'), [p1, p2, p3], 'ISO week 11 of 2026: Monday 9 to Sunday 15 March');
    assert.equal(await listed('filter[ordered_at]=2026-W14'), [p4], 'ISO week 14: Monday 30 March to Sunday 5 April');
    assert.equal(await listed('filter[ordered_at]=..2026-03-10'), [p1]);
    assert.equal(await listed('filter[ordered_at]=2026-03-11..'), [p2, p3, p4]);
    assert.equal(await listed('filter[ordered_at]=2026-03-10..2026-03-11'), [p1, p2, p3]);
    assert.equal(await listed('filter[ordered_at]=2026-03-10&tz=UTC'), [p1, p2, p3], 'tz overrides the company’s zone');
    await setZone('Pacific/Pago_Pago');
    assert.equal(await listed('filter[ordered_at]=2026-03-09'), [p1, p2]);
    assert.equal(await listed('filter[ordered_at]=2026-03-10'), [p3]);
    assert.equal(await listed('filter[ordered_at]=2026-03'), [p1, p2, p3, p4]);
    // The grouped totals bucket in the same zone: each group's key, as a filter, lists its records.
    const groups = await get(`/purchases/purchase-orders/aggregate?filter[partner_id]=${vendor}&group_by=ordered_at:day&sort=ordered_at:day`);
    assert.equal(
      groups.data.map((group: { key: Record<string, string>; measures: { count: number } }) => [group.key['ordered_at:day'], group.measures.count]),
      [
        ['2026-03-09', 2],
        ['2026-03-10', 1],
        ['2026-03-31', 1],
      ],
    );
    assert.is(groups.meta.tz, 'Pacific/Pago_Pago');
    // A CSV export reads the same rows.
    const exported = await call('get', `/purchases/purchase-orders/export?format=jsonl&fields=id&filter[partner_id]=${vendor}&filter[ordered_at]=2026-03-09`);
    assert.is(exported.status, 200, exported.text);
    assert.equal(
      exported.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).id),
      [p1, p2],
    );
    // What names no period is a 422 on the filter or on tz; nothing is read.
    for (const [query, key] of [
      ['filter[ordered_at]=2026-02-30', 'filter[ordered_at]'],
      ['filter[ordered_at]=2026-03-11..2026-03-10', 'filter[ordered_at]'],
      ['filter[ordered_at]=2026-W54', 'filter[ordered_at]'],
      ['filter[ordered_at]=..', 'filter[ordered_at]'],
      ['filter[ordered_at]=2026-03&tz=Mars/Base', 'tz'],
    ]) {
      const refused = await call('get', `${orders}&${query}`);
      assert.is(refused.status, 422, `${query}: ${refused.text}`);
      assert.ok(refused.body.errors[key!], `${query}: the error names ${key}`);
    }
  });

  suiteOf.run();
}
