// Bounded work per request: every list in a body has a bound (1,000 unless a definition says
// otherwise), error bodies stay short, values the service computes fit their columns, dates and
// offsets are checked, pages stop where a database can count, and a request at the bound completes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp, type TestApp } from '../helpers/app.ts';
import { databaseTargets } from '../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`bounded requests [${target.name}]`);
  let app: TestApp & { token: string };
  const ids: Record<string, number> = {};
  const post = (path: string, body: unknown) => app.client.post(`${API}${path}`, { token: app.token, body });
  const orders = async () => Number((await app.knex('sales_orders').count({ n: '*' }).first())!.n);
  const order = (lines: unknown[], extra: Record<string, unknown> = {}) => ({ partner_id: ids.partner, payment_term_id: ids.term, date_order: '2026-11-23', lines, ...extra });
  const line = (extra: Record<string, unknown> = {}) => ({ product_id: ids.product, product_qty: 1, price_unit: 10, ...extra });

  test.before(async () => {
    app = await sharedApp(target);
    const category = (await app.knex('products_categories').orderBy('id').first('id')).id;
    ids.product = (await post('/products/products', { type: 'goods', name: `Bounded ${target.name}`, price: 10, category_id: category })).body.data.id;
    ids.partner = (await post('/partners/partners', { account_type: 'company', name: `Bounded customer ${target.name}` })).body.data.id;
    ids.term = (await app.knex('accounts_payment_terms').whereNull('deleted_at').orderBy('id').first('id')).id;
  });

  test('totals beyond what an amount column holds are a 422 naming the line; nothing is written', async () => {
    const before = await orders();
    const response = await post('/sales/orders', order([1, 2, 3].map(() => line({ product_qty: 99999999999, price_unit: 99999999999 }))));
    assert.is(response.status, 422, response.text);
    assert.equal(Object.keys(response.body.errors), ['lines.0']);
    assert.is(await orders(), before);
  });

  test('a list above its bound is a 422 naming it before any query; repeated ids count once; errors stay short', async () => {
    const before = await orders();
    const tooMany = await post('/sales/orders', order(Array.from({ length: 1001 }, () => line())));
    assert.is(tooMany.status, 422);
    assert.equal(tooMany.body.errors, { lines: ['The lines field must not have more than 1000 items.'] });
    const tags = await post('/sales/orders', order([line()], { sales_order_tags: Array.from({ length: 40000 }, (_, i) => i + 1) }));
    assert.equal([tags.status, tags.body.errors], [422, { sales_order_tags: ['The sales order tags field must not have more than 1000 items.'] }]);
    const repeated = await post('/sales/orders', order([line()], { sales_order_tags: Array.from({ length: 5000 }, () => 99999999) }));
    assert.equal(repeated.body.errors, { 'sales_order_tags.0': ['The selected sales order tags.0 is invalid.'] }, 'one id sent 5000 times is one id');
    const taxes = await post('/sales/orders', order([line({ taxes: Array.from({ length: 40000 }, (_, i) => i + 1) })]));
    assert.equal(taxes.body.errors, { 'lines.0.taxes': ['The lines.0.taxes field must not have more than 1000 items.'] });
    const many = await post('/sales/orders', order(Array.from({ length: 300 }, () => line({ product_id: 99999999 }))));
    assert.is(Object.keys(many.body.errors).length, 50, 'at most 50 fields named');
    assert.match(many.body.message, /^The selected lines\.0\.product id is invalid\. \(and 299 more errors\)$/);
    assert.is(await orders(), before);
  });

  test('an order at the bound (1,000 lines) is created', async () => {
    const started = Date.now();
    const response = await post('/sales/orders', order(Array.from({ length: 1000 }, (_, i) => line({ product_qty: 1 + (i % 7) }))));
    assert.is(response.status, 201, response.text);
    const stored = await app.knex('sales_order_lines').where('order_id', response.body.data.id).count({ n: '*' }).first();
    assert.is(Number(stored!.n), 1000);
    assert.is(
      response.body.data.amount_untaxed,
      Array.from({ length: 1000 }, (_, i) => 10 * (1 + (i % 7))).reduce((a, b) => a + b),
    );
    console.log(`    1,000-line order on ${target.name}: ${Date.now() - started} ms`);
  });

  test('dates: a UTC offset beyond ±14:00 or a year no column stores is a 422 naming the field', async () => {
    for (const commitment_date of ['2026-11-23T10:00:00+25:00', '2026-11-23T10:00:00-14:30', '0999-12-31', '2026-02-29T10:00:00Z']) {
      const response = await post('/sales/orders', order([line()], { commitment_date }));
      assert.is(response.status, 422, commitment_date);
      assert.equal(Object.keys(response.body.errors), ['commitment_date']);
    }
    const far = await post('/sales/orders', order([line()], { commitment_date: '2026-11-23T10:00:00+14:00' }));
    assert.is(far.status, 201, far.text);
    assert.match(far.body.data.commitment_date, /^2026-11-22T20:00:00/, 'stored as the same instant in UTC');
  });

  test('a page past what a database can count is a 422; so is an integer filter past 15 digits', async () => {
    const page = await app.client.get(`${API}/support/banks?page=1000000000000000000`, { token: app.token });
    assert.equal([page.status, page.body.errors], [422, { page: ['The page field must not be greater than 1000000000.'] }]);
    const filter = await app.client.get(`${API}/support/banks?filter[id]=18446744073709551616`, { token: app.token });
    assert.is(filter.status, 422);
  });

  test.run();
}
