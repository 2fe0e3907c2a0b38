// Sales orders: lines priced by hand or by the price list, totals a bookkeeper can check, names
// from a gap-free sequence, and nothing written when a line is wrong.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`sales orders [${target.name}]`);
  let app: TestApp & { token: string };
  const ids: Record<string, number> = {};
  const post = (path: string, body: unknown) => app.client.post(`${API}${path}`, { token: app.token, body });

  test.before(async () => {
    app = await sharedApp(target);
    const category = await app.knex('products_categories').orderBy('id').first('id');
    const product = async (name: string, price: number) => {
      const response = await post('/products/products', { type: 'goods', name, price, category_id: category.id });
      assert.is(response.status, 201, response.text);
      return response.body.data.id as number;
    };
    ids.chair = await product(`Chair ${target.name}`, 100);
    ids.desk = await product(`Desk ${target.name}`, 250);
    const tax = await post('/accounts/taxes', { name: `VAT 15 ${target.name}`, type_tax_use: 'sale', amount_type: 'percent', amount: 15 });
    assert.is(tax.status, 201, tax.text);
    ids.vat = tax.body.data.id;
    const included = await post('/accounts/taxes', { name: `VAT 20 incl ${target.name}`, type_tax_use: 'sale', amount_type: 'percent', amount: 20, price_include: true });
    ids.vatIncluded = included.body.data.id;
    ids.partner = (await post('/partners/partners', { account_type: 'company', name: `Customer ${target.name}` })).body.data.id;
    ids.paymentTerm = (await app.knex('accounts_payment_terms').whereNull('deleted_at').orderBy('id').first('id')).id;
    const eur = await app.knex('currencies').where('name', 'EUR').first('id');
    const priceList = await post('/sales/price-lists', { name: `Wholesale ${target.name}`, currency_id: eur.id });
    assert.is(priceList.status, 201, priceList.text);
    ids.priceList = priceList.body.data.id;
    ids.eur = eur.id;
    // The desk costs 200 from 5 pieces on this price list (a rule as the price list screen would store it).
    await app
      .knex('sales_price_list_rules')
      .insert({ price_list_id: ids.priceList, product_id: ids.desk, min_quantity: 5, compute_price: 'fixed', fixed_price: 200, base: 'list_price' });
  });

  const order = (lines: unknown[], extra: Record<string, unknown> = {}) => ({
    partner_id: ids.partner,
    payment_term_id: ids.paymentTerm,
    date_order: '2025-03-14',
    lines,
    ...extra,
  });

  test('totals follow quantity, price, discount and taxes, rounded to the currency', async () => {
    const response = await post(
      '/sales/orders?include=lines',
      order([
        { product_id: ids.chair, product_qty: 3, price_unit: 19.99, discount: 10, taxes: [ids.vat] },
        { product_id: ids.desk, product_qty: 1, price_unit: 120, taxes: [ids.vatIncluded] },
      ]),
    );
    assert.is(response.status, 201, response.text);
    assert.is(response.body.message, 'Order created successfully.');
    const data = response.body.data;
    assert.match(data.name, /^S\d{5}$/);
    assert.is(data.state, 'draft');
    // Line 1: 19.99 × 3 × 0.9 = 53.97, tax 15 % = 8.10 (8.0955 rounded), total 62.07.
    // Line 2: 120 includes 20 % VAT: subtotal 100, tax 20, total 120.
    const [chair, desk] = data.lines;
    assert.equal([chair.price_subtotal, chair.price_tax, chair.price_total], [53.97, 8.1, 62.07]);
    assert.equal([desk.price_subtotal, desk.price_tax, desk.price_total], [100, 20, 120]);
    assert.equal([data.amount_untaxed, data.amount_tax, data.amount_total], [153.97, 28.1, 182.07]);
    assert.is(chair.name, `Chair ${target.name}`, 'the line is named after its product');
    assert.is(chair.product_uom_qty, 3);
    assert.is(data.partner_invoice_id, ids.partner);
    assert.is(data.partner_shipping_id, ids.partner);
    const stored = await app.knex('sales_order_line_taxes').where('order_line_id', chair.id).pluck('tax_id');
    assert.equal(stored.map(Number), [ids.vat]);
  });

  test('lines without a price are priced by the price list, whose currency the order takes', async () => {
    const response = await post(
      '/sales/orders?include=lines,currency',
      order(
        [
          { product_id: ids.desk, product_qty: 5 },
          { product_id: ids.desk, product_qty: 1 },
          { product_id: ids.chair, product_qty: 2, price_unit: 90 },
        ],
        { price_list_id: ids.priceList, currency_id: 1 },
      ),
    );
    assert.is(response.status, 201, response.text);
    const data = response.body.data;
    assert.is(data.currency_id, ids.eur, 'the price list currency wins over currency_id');
    assert.is(data.currency.name, 'EUR');
    const [bulk, single, chair] = data.lines;
    assert.is(bulk.price_unit, 200, 'the rule from 5 pieces');
    assert.is(single.price_unit, 250, 'below the rule: the sales price');
    assert.is(chair.price_unit, 90, 'a price sent is kept');
    assert.is(data.amount_total, 1000 + 250 + 180);
  });

  test('a price list rule on a parent category prices the products of its subcategories', async () => {
    const child = await app.knex('products_categories').whereNotNull('parent_id').orderBy('id').first('id', 'parent_id');
    const lamp = await post('/products/products', { type: 'goods', name: `Lamp ${target.name}`, price: 40, category_id: child.id });
    const priceList = await post('/sales/price-lists', { name: `Category deal ${target.name}`, currency_id: 1 });
    await app
      .knex('sales_price_list_rules')
      .insert({ price_list_id: priceList.body.data.id, category_id: child.parent_id, compute_price: 'percentage', percent_price: 25, base: 'list_price', min_quantity: 0 });
    const response = await post('/sales/orders?include=lines', order([{ product_id: lamp.body.data.id, product_qty: 1 }], { price_list_id: priceList.body.data.id }));
    assert.is(response.status, 201, response.text);
    assert.is(response.body.data.lines[0].price_unit, 30, '25 % off the parent category');
  });

  test('validation: at least one line, a price without a price list, lines named by index; nothing written', async () => {
    const before = await app.knex('sales_orders').count({ count: '*' }).first();
    const empty = await post('/sales/orders', order([]));
    assert.is(empty.status, 422);
    assert.equal(empty.body.errors, { lines: ['The lines field must have at least 1 item.'] });
    const noPrice = await post('/sales/orders', order([{ product_id: ids.chair, product_qty: 1 }]));
    assert.is(noPrice.status, 422);
    assert.equal(noPrice.body.errors, { 'lines.0.price_unit': ['The lines.0.price unit field is required when price list id is not present.'] });
    const badLine = await post(
      '/sales/orders',
      order([
        { product_id: ids.chair, product_qty: 1, price_unit: 1 },
        { product_id: 99999999, product_qty: -1, price_unit: 1, discount: 120, taxes: [99999999] },
      ]),
    );
    assert.is(badLine.status, 422);
    assert.equal(badLine.body.errors, {
      'lines.1.product_id': ['The selected lines.1.product id is invalid.'],
      'lines.1.product_qty': ['The lines.1.product qty field must be at least 0.'],
      'lines.1.discount': ['The lines.1.discount field must not be greater than 100.'],
      'lines.1.taxes.0': ['The selected lines.1.taxes.0 is invalid.'],
    });
    const after = await app.knex('sales_orders').count({ count: '*' }).first();
    assert.is(Number(after!.count), Number(before!.count), 'no order written');
  });

  test('order names are gap-free and unique when orders are created at once', async () => {
    const responses = await Promise.all(Array.from({ length: 6 }, () => post('/sales/orders', order([{ product_id: ids.chair, product_qty: 1, price_unit: 10 }]))));
    for (const response of responses) assert.is(response.status, 201, response.text);
    const numbers = responses.map((response) => Number(response.body.data.name.slice(1))).sort((a, b) => a - b);
    for (let i = 1; i < numbers.length; i++) assert.is(numbers[i], numbers[0]! + i, `consecutive: ${numbers}`);
    // A refused order does not use a number.
    await post('/sales/orders', order([{ product_id: ids.chair, product_qty: 1 }]));
    const next = await post('/sales/orders', order([{ product_id: ids.chair, product_qty: 1, price_unit: 10 }]));
    assert.is(Number(next.body.data.name.slice(1)), numbers[numbers.length - 1]! + 1);
  });

  test('update: lines sent replace the lines (by id, new, removed) and the totals follow', async () => {
    const created = await post(
      '/sales/orders?include=lines',
      order([
        { product_id: ids.chair, product_qty: 1, price_unit: 100 },
        { product_id: ids.desk, product_qty: 1, price_unit: 250 },
      ]),
    );
    const [chair] = created.body.data.lines;
    const updated = await app.client.put(`${API}/sales/orders/${created.body.data.id}?include=lines`, {
      token: app.token,
      body: {
        lines: [
          { id: chair.id, product_qty: 2 },
          { product_id: ids.chair, product_qty: 1, price_unit: 50, taxes: [ids.vat] },
        ],
      },
    });
    assert.is(updated.status, 200, updated.text);
    const lines = updated.body.data.lines;
    assert.equal(
      lines.map((line: any) => [line.id === chair.id, line.product_qty, line.price_subtotal]),
      [
        [true, 2, 200],
        [false, 1, 50],
      ],
    );
    assert.equal([updated.body.data.amount_untaxed, updated.body.data.amount_tax, updated.body.data.amount_total], [250, 7.5, 257.5]);
    const notes = await app.client.put(`${API}/sales/orders/${created.body.data.id}?include=lines`, { token: app.token, body: { note: 'Call first' } });
    assert.is(notes.body.data.lines.length, 2, 'lines left out of the body stay');
  });

  test.run();
}
