// One currency-rate rule for every document (src/behaviours/support/currency-rates.ts), as a new
// user meets it through the API: a foreign currency with a shared rate and the company's own rate
// on the same day; a sales order priced by a price list in that currency, a purchase order and a
// customer invoice all take the company's rate, the latest on or before their date; a document
// dated before the first rate takes the earliest one, never 1; a rate of 0 is no rate; a currency
// without any rate is at 1.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sharedApp, type TestApp } from '../../helpers/app.ts';
import { asAdmin } from '../../helpers/as-admin.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`currency rates on documents [${target.name}]`);
  let app: TestApp & { token: string };
  const ids: Record<string, number> = {};
  const { call, get, created } = asAdmin(() => app);
  const currency = async (name: string) => (await get(`/support/currencies?filter[name]=${name}`)).data[0].id as number;

  test.before(async () => {
    app = await sharedApp(target);
    // Two currencies no other suite gives rates: CHF gets them here, ISK never does.
    ids.chf = await currency('CHF');
    ids.isk = await currency('ISK');
    ids.company = (await get('/support/companies?sort=id')).data[0].id;
    const rate = (body: Record<string, unknown>) => created(`/support/currencies/${ids.chf}/rates`, body);
    await rate({ name: '2026-06-01', rate: 1.1 }); // shared (no company)
    await rate({ name: '2026-06-01', rate: 1.2, company_id: ids.company }); // the company's own, the same day
    await rate({ name: '2026-06-20', rate: 1.5 }); // a later shared rate
    await rate({ name: '2026-07-01', rate: 0, company_id: ids.company }); // no rate

    const category = (await get('/products/categories?sort=id')).data[0].id;
    const product = await created('/products/products', { type: 'service', name: `Rated consulting ${target.name}`, price: 100, category_id: category });
    ids.product = product.id;
    ids.uom = product.uom_id;
    ids.customer = (await created('/partners/partners', { account_type: 'company', name: `Rated customer ${target.name}` })).id;
    ids.vendor = (await created('/partners/partners', { account_type: 'company', name: `Rated vendor ${target.name}` })).id;
    ids.term = (await get('/accounts/payment-terms?sort=id')).data[0].id;
    ids.priceList = (await created('/sales/price-lists', { name: `Swiss francs ${target.name}`, currency_id: ids.chf })).id;
  });

  const salesOrder = (date: string) =>
    created('/sales/orders?include=lines', {
      partner_id: ids.customer,
      payment_term_id: ids.term,
      price_list_id: ids.priceList,
      date_order: date,
      lines: [{ product_id: ids.product, product_qty: 1 }],
    });
  const purchaseOrder = (date: string, currencyId = ids.chf) =>
    created('/purchases/purchase-orders', {
      partner_id: ids.vendor,
      currency_id: currencyId,
      ordered_at: `${date}T09:00:00Z`,
      lines: [{ product_id: ids.product, product_qty: 1, price_unit: 120 }],
    });
  const invoice = (date: string) =>
    created('/accounts/invoices', {
      partner_id: ids.customer,
      currency_id: ids.chf,
      invoice_date: date,
      invoice_date_due: date,
      invoice_lines: [{ product_id: ids.product, uom_id: ids.uom, quantity: 1, price_unit: 120 }],
    });

  test("a sales order takes the company's rate over the shared one of the same day", async () => {
    const order = await salesOrder('2026-06-10');
    assert.is(order.currency_id, ids.chf, 'the price list decides the currency');
    assert.is(order.currency_rate, 1.2);
    assert.is(order.lines[0].price_unit, 120, 'the product price of 100 (company currency) at 1.2');
  });

  test("a purchase order takes the company's rate over the shared one of the same day", async () => {
    const order = await purchaseOrder('2026-06-10');
    assert.is(order.currency_rate, 1.2);
    assert.is(order.total_amount, 120);
    assert.is(order.total_cc_amount, 100, 'in the company currency at 1.2');
  });

  test("a customer invoice takes the company's rate over the shared one of the same day", async () => {
    const draft = await invoice('2026-06-10');
    assert.is(draft.invoice_currency_rate, '1.200000');
    assert.equal([draft.amount_total, draft.amount_total_signed], ['120.0000', '100.0000']);
  });

  test('a document dated before the first rate takes the earliest rate (the company’s on a tie), not 1', async () => {
    const order = await salesOrder('2026-05-01');
    assert.equal([order.currency_rate, order.lines[0].price_unit], [1.2, 120]);
    assert.is((await purchaseOrder('2026-05-01')).currency_rate, 1.2);
    assert.is((await invoice('2026-05-01')).invoice_currency_rate, '1.200000');
  });

  test('a later rate takes over from its day; a rate of 0 is no rate; a currency without rates is at 1', async () => {
    assert.is((await purchaseOrder('2026-06-20')).currency_rate, 1.5, 'on its day');
    assert.is((await purchaseOrder('2026-07-05')).currency_rate, 1.5, 'the 0 of 2026-07-01 is skipped');
    assert.is((await invoice('2026-07-05')).invoice_currency_rate, '1.500000');
    assert.is((await purchaseOrder('2026-06-10', ids.isk)).currency_rate, 1);
  });

  test('changing the date of a purchase order or an invoice follows the rates', async () => {
    const order = await purchaseOrder('2026-05-01');
    const moved = await call('put', `/purchases/purchase-orders/${order.id}`, { ordered_at: '2026-06-25T09:00:00Z' });
    assert.is(moved.status, 200, moved.text);
    assert.is(moved.body.data.currency_rate, 1.5);
    const draft = await invoice('2026-05-01');
    const redated = await call('put', `/accounts/invoices/${draft.id}`, { invoice_date: '2026-06-25', invoice_date_due: '2026-06-25' });
    assert.is(redated.status, 200, redated.text);
    assert.is(redated.body.data.invoice_currency_rate, '1.500000');
  });

  test.run();
}
