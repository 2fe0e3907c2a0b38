// GET /changes: every write records its change in its own transaction, and a consumer that
// follows the cursors sees each committed change once, in commit order, limited to what it may
// list; a cursor older than what is kept answers 410.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { purgeChanges } from '../../engine/index.ts';
import { userWith } from '../helpers/access.ts';
import { API, sharedApp, type TestApp } from '../helpers/app.ts';
import { databaseTargets } from '../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`change feed [${target.name}]`);
  let app: TestApp & { token: string };
  const post = (path: string, body?: unknown) => app.client.post(`${API}${path}`, { token: app.token, body });

  /** Every change after `after` of these resources, following the cursors to the end. */
  async function follow(after: string, resources: string, token = app.token) {
    const changes: any[] = [];
    let cursor = after;
    for (let page = 0; page < 100; page++) {
      const response = await app.client.get(`${API}/changes`, { token, query: { after: cursor, resources, limit: 50 } });
      assert.is(response.status, 200, response.text);
      changes.push(...response.body.data);
      cursor = response.body.next_cursor;
      if (!response.body.has_more) return { changes, cursor };
    }
    throw new Error('the feed never ended');
  }

  /** The cursor of the newest change now: what a consumer starting now continues from. */
  async function now(): Promise<string> {
    const kept = String((await app.knex('change_feed').first('purged_through')).purged_through);
    return (await follow(kept, 'inventories/tags,inventories/receipts,inventories/moves,inventories/quantities,sales/orders,sales/tags')).cursor;
  }

  test.before(async () => {
    app = await sharedApp(target);
  });

  test('create, update, delete, restore and force delete each record a change, in order, with the record after it', async () => {
    const start = await now();
    const created = await post('/inventories/tags', { name: `Feed tag ${target.name}`, color: '#ff0000' });
    assert.is(created.status, 201, created.text);
    const id = created.body.data.id;
    const path = `${API}/inventories/tags/${id}`;
    const renamed = await app.client.put(path, { token: app.token, body: { name: `Feed tag renamed ${target.name}`, color: '#ff0000' } });
    assert.is(renamed.status, 200);
    assert.is((await app.client.delete(path, { token: app.token })).status, 200);
    assert.is((await post(`/inventories/tags/${id}/restore`)).status, 200);
    assert.is((await app.client.delete(`${path}/force`, { token: app.token })).status, 200);

    const { changes } = await follow(start, 'inventories/tags');
    const mine = changes.filter((change) => change.record_id === id);
    assert.equal(
      mine.map((change) => change.kind),
      ['created', 'updated', 'deleted', 'restored', 'force_deleted'],
    );
    assert.equal(mine[0].record, created.body.data, 'the record as the create answered it');
    assert.equal(mine[1].record, renamed.body.data, 'the record as the update answered it');
    assert.equal(mine[1].changed, ['name'], 'the fields the update changed');
    assert.ok(mine[2].record.deleted_at, 'a soft delete shows the trashed record');
    assert.is(mine[3].record.deleted_at, null);
    assert.is(mine[4].record.name, `Feed tag renamed ${target.name}`, 'a force delete keeps the last state');
    assert.is(mine[0].request_id, created.headers['x-request-id'], 'the request that made it');
    assert.is(typeof mine[0].user_id, 'number');
    const cursors = mine.map((change) => BigInt(change.cursor));
    assert.equal(
      cursors,
      [...cursors].sort((a, b) => (a < b ? -1 : 1)),
      'cursors grow',
    );
  });

  test('an action records its kind, and what it wrote besides: the moves and the stock it changed', async () => {
    const category = (await app.knex('products_categories').orderBy('id').first('id')).id;
    const product = await post('/inventories/products', { type: 'goods', name: `Feed bolt ${target.name}`, price: 1, category_id: category, is_storable: true });
    const start = await now();
    const receipt = await post('/inventories/receipts', { moves: [{ product_id: product.body.data.id, product_uom_qty: 3 }] });
    assert.is(receipt.status, 201, receipt.text);
    assert.is((await post(`/inventories/receipts/${receipt.body.data.id}/validate`)).status, 200);
    const { changes } = await follow(start, 'inventories/receipts,inventories/moves,inventories/quantities');
    const seen = changes.map((change) => `${change.resource} ${change.kind}`);
    assert.equal(seen.slice(0, 2), ['inventories/receipts created', 'inventories/moves created'], seen.join(' | '));
    assert.ok(seen.includes('inventories/receipts validated'), seen.join(' | '));
    assert.ok(seen.includes('inventories/moves updated'), 'the moves are done');
    const stock = changes.find((change) => change.resource === 'inventories/quantities' && change.record.product_id === product.body.data.id);
    assert.ok(stock, 'the stock it brought in');
    assert.is(Number(stock.record.quantity), 3);
    const validated = changes.find((change) => change.kind === 'validated');
    assert.is(validated.record.state, 'done');
  });

  test('what the database changes along with a hard delete is recorded too: moves that lose their order line, links that go', async () => {
    const category = (await app.knex('products_categories').orderBy('id').first('id')).id;
    const product = await post('/inventories/products', { type: 'goods', name: `Feed nut ${target.name}`, price: 1, category_id: category, is_storable: true });
    const partner = await post('/partners/partners', { account_type: 'company', name: `Feed customer ${target.name}` });
    const line = { product_id: product.body.data.id, product_qty: 2, price_unit: 5 };
    const order = await post('/sales/orders', { partner_id: partner.body.data.id, payment_term_id: 1, date_order: '2026-11-26', lines: [line] });
    assert.is(order.status, 201, order.text);
    assert.is((await post(`/sales/orders/${order.body.data.id}/confirm`)).status, 200);
    const tag = await post('/sales/tags', { name: `Feed link ${target.name}` });
    const tagged = await app.client.put(`${API}/sales/orders/${order.body.data.id}`, {
      token: app.token,
      body: { sales_order_tags: [tag.body.data.id] },
    });
    assert.is(tagged.status, 200, tagged.text);
    const start = await now();

    // The lines replaced: the old line goes, and the delivery's move no longer points at it.
    const replaced = await app.client.put(`${API}/sales/orders/${order.body.data.id}`, {
      token: app.token,
      body: { lines: [{ ...line, product_qty: 3 }] },
    });
    assert.is(replaced.status, 200, replaced.text);
    const moves = await app.knex('inventories_moves').where('origin', order.body.data.name).select('id', 'sale_order_line_id');
    assert.ok(moves.length > 0 && moves.every((move: any) => move.sale_order_line_id === null), 'the database unlinked the moves');
    const afterReplace = (await follow(start, 'inventories/moves,sales/orders')).changes;
    for (const move of moves) {
      const change = afterReplace.find((candidate) => candidate.resource === 'inventories/moves' && candidate.record_id === move.id);
      assert.ok(change, `move ${move.id} changed`);
      assert.is(change.record.sale_order_line_id, null);
    }

    // The tag deleted (sales tags have no trash): the order it was linked to shows one tag less.
    const linkStart = await now();
    assert.is((await app.client.delete(`${API}/sales/tags/${tag.body.data.id}`, { token: app.token })).status, 200);
    const afterForce = (await follow(linkStart, 'sales/orders,sales/tags')).changes;
    assert.equal(
      afterForce.map((change) => `${change.resource} ${change.record_id} ${change.kind}`),
      [`sales/tags ${tag.body.data.id} deleted`, `sales/orders ${order.body.data.id} updated`],
    );
    assert.equal(afterForce[1].record.sales_order_tags ?? [], []);
  });

  test('a write that is refused or rolled back records nothing', async () => {
    const name = `Feed tag taken ${target.name}`;
    assert.is((await post('/inventories/tags', { name })).status, 201);
    const start = await now();
    const refused = await post('/inventories/receipts', { moves: [{ product_id: 999999999, product_uom_qty: 1 }] });
    assert.is(refused.status, 422);
    const duplicate = await post('/inventories/tags', { name });
    assert.is(duplicate.status, 422);
    assert.equal((await follow(start, 'inventories/receipts,inventories/tags')).changes, []);
  });

  test('a caller reads only the resources it may list; unknown resources and bad cursors are refused', async () => {
    const { token: reader } = await userWith(app, { only: ['view_any_inventory_tag'] });
    const start = await now();
    await post('/inventories/tags', { name: `Feed tag seen ${target.name}` });
    await post('/sales/tags', { name: `Feed sales tag unseen ${target.name}` });
    const all = await app.client.get(`${API}/changes`, { token: reader, query: { after: start, limit: 1000 } });
    assert.is(all.status, 200);
    assert.ok(all.body.data.length > 0);
    assert.ok(
      all.body.data.every((change: any) => change.resource === 'inventories/tags'),
      'only what it may list',
    );
    assert.is((await app.client.get(`${API}/changes`, { token: reader, query: { resources: 'sales/tags' } })).status, 403);
    const unknown = await app.client.get(`${API}/changes`, { token: app.token, query: { resources: 'sales/nothing' } });
    assert.is(unknown.status, 400);
    assert.match(unknown.body.message, /Unknown resources: sales\/nothing/);
    for (const after of ['-1', 'abc', '1.5']) assert.is((await app.client.get(`${API}/changes`, { token: app.token, query: { after } })).status, 400, after);
    assert.is((await app.client.get(`${API}/changes`, { token: app.token, query: { limit: 1001 } })).status, 400);
    assert.is((await app.client.get(`${API}/changes`)).status, 401);
  });

  test('the company scope of lists applies: a user of one company reads its changes and those of records without a company', async () => {
    const company = async (name: string) => (await post('/support/companies', { name: `Feed ${name} ${target.name}`, currency_id: 1 })).body.data.id as number;
    const north = await company('North');
    const south = await company('South');
    const category = (await app.knex('products_categories').orderBy('id').first('id')).id;
    const start = await now();
    const product = async (name: string, companyId: number | null) =>
      (await post('/products/products', { type: 'goods', name: `Feed ${name} ${target.name}`, price: 1, category_id: category, company_id: companyId })).body.data.id as number;
    const northProduct = await product('north chair', north);
    const southProduct = await product('south chair', south);
    const sharedProduct = await product('shared chair', null);
    const { token } = await userWith(app, { only: ['view_any_product_product'], companies: [north] });
    const seen = (await follow(start, 'products/products', token)).changes.map((change) => change.record_id);
    assert.ok(seen.includes(northProduct), 'its company');
    assert.ok(seen.includes(sharedProduct), 'no company');
    assert.not.ok(seen.includes(southProduct), 'another company');
    const all = (await follow(start, 'products/products')).changes.map((change) => change.record_id);
    assert.ok(all.includes(southProduct), 'a user who bypasses the scope (the admin) reads them all');
  });

  test('retention removes the changes older than it keeps, and only those', async () => {
    await post('/inventories/tags', { name: `Feed tag old ${target.name}` });
    const old = await now();
    await post('/inventories/tags', { name: `Feed tag new ${target.name}` });
    const newest = await now();
    // Everything up to `old` was written long ago.
    await app.knex('change_log').where('seq', '<=', old).update({ created_at: '2001-01-01 00:00:00.000000' });
    const removed = await purgeChanges(app.knex, '2002-01-01 00:00:00.000000');
    assert.ok(removed > 0);
    assert.is(String((await app.knex('change_feed').first('purged_through')).purged_through), old, 'purged through the last old change');
    assert.is((await app.client.get(`${API}/changes`, { token: app.token, query: { after: String(BigInt(old) - 1n) } })).status, 410);
    const kept = await follow(old, 'inventories/tags');
    assert.equal(
      kept.changes.map((change) => change.record.name),
      [`Feed tag new ${target.name}`],
      'the newer change is kept',
    );
    assert.is(kept.cursor, newest);
  });

  test('a cursor older than what the feed keeps answers 410; the newest one goes on', async () => {
    await post('/inventories/tags', { name: `Feed tag purged ${target.name}` });
    const newest = await now();
    await purgeChanges(app.knex, '9999-12-31 00:00:00.000000');
    const old = await app.client.get(`${API}/changes`, { token: app.token, query: { after: '0' } });
    assert.is(old.status, 410);
    assert.match(old.body.message, /resync/);
    const goesOn = await app.client.get(`${API}/changes`, { token: app.token, query: { after: newest } });
    assert.is(goesOn.status, 200, goesOn.text);
    assert.equal(goesOn.body.data, []);
  });

  if (target.name === 'mysql') {
    test('a change committed after a later one was read is not skipped: it comes after it', async () => {
      const earlier = await post('/inventories/tags', { name: `Feed tag slow ${target.name}` });
      const start = await now();
      // A slow write: its change row takes its id now and commits last.
      const slow = await app.knex.transaction();
      const [slowId] = await slow('change_log').insert({
        resource: 'inventories/tags',
        record_id: earlier.body.data.id,
        kind: 'updated',
        record: JSON.stringify(earlier.body.data),
        created_at: '2026-11-26 00:00:00.000000',
      });
      const fast = await post('/inventories/tags', { name: `Feed tag fast ${target.name}` });
      assert.is(fast.status, 201);
      const first = await follow(start, 'inventories/tags');
      assert.ok(
        first.changes.some((change) => change.record_id === fast.body.data.id),
        'the later write is read first',
      );
      assert.not.ok(
        first.changes.some((change) => change.record_id === earlier.body.data.id),
        'the slow change is not there yet',
      );
      await slow.commit();
      const second = await follow(first.cursor, 'inventories/tags');
      assert.equal(
        second.changes.map((change) => change.record_id),
        [earlier.body.data.id],
        'the slow change, after the cursor already read',
      );
      assert.ok(Number(slowId) < Number((await app.knex('change_log').where('record_id', fast.body.data.id).first('id')).id), 'it had the smaller id');
    });
  }

  test.run();
}
