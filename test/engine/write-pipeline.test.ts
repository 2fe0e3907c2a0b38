// Every writer runs the one write pipeline (engine/write/): a behaviour's createMany stores what a
// client's POST stores (createWith, template), its forceDeleteMany refuses what a client's DELETE
// refuses (locks, onDelete: restrict), and the set-based updates skip what their contract says
// they skip, refusing the fields whose rules they would leave stale. On the real definitions and
// behaviours, on each database.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Records } from '../../engine/behaviours/types.ts';
import { ActionRefusedError, ConflictError } from '../../engine/errors/http-errors.ts';
import { loadResources } from '../../src/app/build-app.ts';
import { behaviours } from '../../src/behaviours/index.ts';
import { ADMIN, API, sharedApp, type TestApp } from '../helpers/app.ts';
import { databaseTargets } from '../helpers/targets.ts';
import { testUnits } from '../helpers/write-unit.ts';

const registry = loadResources();

for (const target of databaseTargets()) {
  const test = suite(`write pipeline [${target.name}]`);
  let app: TestApp & { token: string };
  const post = (path: string, body?: unknown) => app.client.post(`${API}${path}`, { token: app.token, body });
  const get = (path: string) => app.client.get(`${API}${path}`, { token: app.token });
  /** A behaviour's unit of writing on the app's database: the real definitions, behaviours and pipeline. */
  const asBehaviour = async <T>(work: (records: Records) => Promise<T>) => {
    const admin = await app.knex('users').where('email', ADMIN.email).first('id', 'name', 'email');
    return testUnits(app.knex, registry, behaviours, admin).run(({ context }) => work(context.records));
  };
  const refusal = async (work: (records: Records) => Promise<unknown>) => {
    try {
      await asBehaviour(work);
    } catch (error) {
      return error;
    }
    throw new Error('the write was accepted');
  };

  /** An invoice confirmed through the API: posted, which its locks keep from changes and deletes. */
  const postedInvoice = async (name: string) => {
    const partner = (await post('/partners/partners', { account_type: 'company', name: `${name} customer ${target.name}` })).body.data.id;
    const product = (
      await post('/products/products', { type: 'service', name: `${name} service ${target.name}`, price: 10, category_id: (await app.knex('products_categories').first('id')).id })
    ).body.data;
    const invoice = await post('/accounts/invoices', {
      partner_id: partner,
      currency_id: (await app.knex('companies').orderBy('id').first('currency_id')).currency_id,
      journal_id: (await app.knex('accounts_journals').where('type', 'sale').first('id')).id,
      invoice_date: '2026-11-20',
      invoice_date_due: '2026-12-20',
      invoice_lines: [{ product_id: product.id, uom_id: product.uom_id, quantity: 1, price_unit: 10 }],
    });
    assert.is(invoice.status, 201, invoice.text);
    const confirmed = await post(`/accounts/invoices/${invoice.body.data.id}/confirm`);
    assert.is(confirmed.status, 200, confirmed.text);
    return Number(invoice.body.data.id);
  };

  test.before(async () => {
    app = await sharedApp(target);
  });

  test('createMany stores what the HTTP create stores: the related records of createWith', async () => {
    const byHttp = await post('/accounts/payment-terms', { name: `By HTTP ${target.name}` });
    assert.is(byHttp.status, 201, byHttp.text);
    const ids = await asBehaviour((records) => records('accounts/payment-terms').createMany([{ name: `Many A ${target.name}` }, { name: `Many B ${target.name}` }]));
    const dueTerms = async (id: number) =>
      (await get(`/accounts/payment-terms/${id}?include=dueTerms`)).body.data.due_terms.map(({ value, value_amount, delay_type, nb_days }: any) => ({
        value,
        value_amount,
        delay_type,
        nb_days,
      }));
    const expected = await dueTerms(byHttp.body.data.id);
    assert.is(expected.length, 1, 'the HTTP create made its due term');
    for (const id of ids) assert.equal(await dueTerms(id), expected, `payment term ${id}`);
  });

  test('createMany stores what the HTTP create stores: a template name made once the record has its id', async () => {
    const company = (await app.knex('companies').orderBy('id').first('id', 'currency_id')) as { id: number; currency_id: number };
    const partner = (await post('/partners/partners', { account_type: 'company', name: `Agreement vendor ${target.name}` })).body.data.id;
    const product = (
      await post('/products/products', { type: 'goods', name: `Agreed goods ${target.name}`, price: 10, category_id: (await app.knex('products_categories').first('id')).id })
    ).body.data;
    const body = (reference: string) => ({
      type: 'purchase_template',
      reference,
      currency_id: company.currency_id,
      partner_id: partner,
      company_id: company.id,
      lines: [{ product_id: product.id, uom_id: product.uom_id, qty: 3, price_unit: 9 }],
    });
    const byHttp = await post('/purchases/purchase-agreements', body('http'));
    assert.is(byHttp.status, 201, byHttp.text);
    assert.is(byHttp.body.data.name, `PT/${byHttp.body.data.id}`);
    const ids = await asBehaviour((records) => records('purchases/purchase-agreements').createMany([body('many 1'), body('many 2')]));
    for (const id of ids) assert.is((await get(`/purchases/purchase-agreements/${id}`)).body.data.name, `PT/${id}`);
  });

  test('forceDeleteMany refuses a record its locks keep, as the HTTP delete does', async () => {
    const id = await postedInvoice('Locked');
    const byHttp = await app.client.delete(`${API}/accounts/invoices/${id}`, { token: app.token });
    assert.is(byHttp.status, 422, byHttp.text);
    const error = await refusal((records) => records('accounts/invoices').forceDeleteMany((query) => query.where('id', id)));
    assert.instance(error, ActionRefusedError);
    assert.is((error as ActionRefusedError).message, byHttp.body.message);
    assert.ok(await app.knex('accounts_account_moves').where('id', id).first('id'), 'still there');
  });

  test('forceDeleteMany refuses an owner its onDelete: restrict relations still point at (409), as the HTTP delete does, system or not', async () => {
    const category = await post('/support/uom-categories', { name: `Restricted ${target.name}` });
    assert.is(category.status, 201, category.text);
    const id = category.body.data.id;
    const uom = await post(`/support/uom-categories/${id}/uoms`, { name: `Piece ${target.name}`, type: 'reference', factor: 1, rounding: 0.01, category_id: id });
    assert.is(uom.status, 201, uom.text);
    const byHttp = await app.client.delete(`${API}/support/uom-categories/${id}`, { token: app.token });
    assert.is(byHttp.status, 409, byHttp.text);
    for (const options of [{}, { system: true }]) {
      const error = await refusal((records) => records('support/uom-categories').forceDeleteMany((query) => query.where('id', id), options));
      assert.instance(error, ConflictError);
      assert.is((error as ConflictError).message, byHttp.body.message);
    }
    assert.ok(await app.knex('unit_of_measure_categories').where('id', id).first('id'), 'still there');
  });

  test('a set-based update is the system’s: it writes a state the locks keep from clients, and refuses a field a rule follows', async () => {
    const id = await postedInvoice('Set-based');
    assert.is((await app.client.put(`${API}/accounts/invoices/${id}`, { token: app.token, body: { narration: 'x' } })).status, 422, 'a client may not change it');
    await asBehaviour((records) => records('accounts/invoices').updateMany([id], { payment_state: 'in_payment' }));
    assert.is((await get(`/accounts/invoices/${id}`)).body.data.payment_state, 'in_payment');

    // Refused before anything is read or written: a formula's operand, a tree's parent.
    assert.match(String(await refusal((records) => records('purchases/vendor-price-lists').updateMany([1], { discount: 5 }))), /discount cannot be set by a set-based write/);
    const location = (await app.knex('inventories_locations').whereNotNull('parent_id').first('id', 'parent_id')) as { id: number; parent_id: number };
    assert.match(
      String(await refusal((records) => records('inventories/locations').updateEach([{ id: location.id, values: { parent_id: null } }]))),
      /parent_id cannot be set by a set-based write/,
    );
    assert.is((await app.knex('inventories_locations').where('id', location.id).first('parent_id')).parent_id, location.parent_id);
  });

  test('append per parent: an order’s new lines go last in their order, whatever other orders hold', async () => {
    const partner = (await post('/partners/partners', { account_type: 'company', name: `Sorted customer ${target.name}` })).body.data.id;
    const product = (
      await post('/products/products', { type: 'service', name: `Sorted service ${target.name}`, price: 10, category_id: (await app.knex('products_categories').first('id')).id })
    ).body.data.id;
    const term = (await app.knex('accounts_payment_terms').whereNull('deleted_at').orderBy('id').first('id')).id;
    const order = async (count: number) => {
      const lines = Array.from({ length: count }, (_, index) => ({ product_id: product, product_qty: index + 1, price_unit: 10 }));
      const response = await post('/sales/orders', { partner_id: partner, payment_term_id: term, date_order: '2026-11-23', lines });
      assert.is(response.status, 201, response.text);
      return response.body.data.id as number;
    };
    const sorts = async (id: number) => (await app.knex('sales_order_lines').where('order_id', id).orderBy('id').pluck('sort')).map(Number);
    const first = await order(3);
    const second = await order(2);
    assert.equal(await sorts(first), [1, 2, 3]);
    assert.equal(await sorts(second), [1, 2], 'the second order’s lines start at 1, not after the first order’s');
    const kept = (await app.knex('sales_order_lines').where('order_id', second).orderBy('id').pluck('id')).map((id) => ({ id: Number(id) }));
    const updated = await app.client.put(`${API}/sales/orders/${second}`, {
      token: app.token,
      body: { lines: [...kept, { product_id: product, product_qty: 9, price_unit: 10 }] },
    });
    assert.is(updated.status, 200, updated.text);
    assert.equal(await sorts(second), [1, 2, 3], 'a line added later goes after the order’s own');
  });

  test.run();
}
