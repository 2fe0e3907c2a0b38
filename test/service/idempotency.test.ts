// Idempotency-Key: a retried POST writes once, whichever process answers the retry and even when
// both arrive at once; the same key with another body is a 422; keys are per user.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { userWith } from '../helpers/access.ts';
import { API, sharedApp, startApp, type TestApp } from '../helpers/app.ts';
import { databaseTargets } from '../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`idempotency [${target.name}]`);
  let app: TestApp & { token: string };
  let other: TestApp;
  const banks = async (name: string) => Number((await app.knex('banks').where('name', name).count({ n: '*' }).first())!.n);
  const post = (client: TestApp['client'], key: string, body: unknown, token = app.token) =>
    client.post(`${API}/support/banks`, { token, body, headers: { 'idempotency-key': key } });

  test.before(async () => {
    app = await sharedApp(target);
    other = await startApp(target, { knex: app.knex, minimalSeed: true });
  });
  test.after(async () => {
    await other?.close();
  });

  test('a repeat answers the stored response without writing again, also from another process', async () => {
    const key = `create-bank-${target.name}-1`;
    const body = { name: `Idempotent ${target.name}` };
    const first = await post(app.client, key, body);
    assert.is(first.status, 201);
    const again = await post(app.client, key, body);
    assert.equal([again.status, again.body], [201, first.body]);
    assert.is(again.headers['idempotent-replayed'], 'true');
    const elsewhere = await post(other.client, key, body);
    assert.equal([elsewhere.status, elsewhere.body], [201, first.body]);
    assert.is(await banks(body.name), 1);
  });

  test('the same key with another request is a 422; another user has keys of their own', async () => {
    const key = `create-bank-${target.name}-2`;
    await post(app.client, key, { name: `Keyed ${target.name}` });
    const changed = await post(app.client, key, { name: `Keyed other ${target.name}` });
    assert.equal([changed.status, changed.body], [422, { message: 'This Idempotency-Key was already used with another request.' }]);
    assert.is(await banks(`Keyed other ${target.name}`), 0);
    const { token } = await userWith(app, { only: ['create_support_bank'] });
    const theirs = await post(app.client, key, { name: `Keyed theirs ${target.name}` }, token);
    assert.is(theirs.status, 201);
    const bad = await post(app.client, 'x'.repeat(256), { name: 'x' });
    assert.is(bad.status, 400);
  });

  test('two identical requests at the same moment write once', async () => {
    const key = `create-bank-${target.name}-3`;
    const body = { name: `Simultaneous ${target.name}` };
    const [a, b] = await Promise.all([post(app.client, key, body), post(other.client, key, body)]);
    assert.equal([a.status, b.status], [201, 201]);
    assert.equal(a.body, b.body);
    assert.is(await banks(body.name), 1);
  });

  test('a retried workflow action answers what it answered, instead of a guard refusal', async () => {
    const category = (await app.knex('products_categories').orderBy('id').first('id')).id;
    const product = await app.client.post(`${API}/inventories/products`, {
      token: app.token,
      body: { type: 'goods', name: `Retried ${target.name}`, price: 1, category_id: category },
    });
    const receipt = await app.client.post(`${API}/inventories/receipts`, { token: app.token, body: { moves: [{ product_id: product.body.data.id, product_uom_qty: 1 }] } });
    const key = `todo-${target.name}-${receipt.body.data.id}`;
    const first = await app.client.post(`${API}/inventories/receipts/${receipt.body.data.id}/todo`, { token: app.token, headers: { 'idempotency-key': key } });
    const again = await app.client.post(`${API}/inventories/receipts/${receipt.body.data.id}/todo`, { token: app.token, headers: { 'idempotency-key': key } });
    assert.is(first.status, 200, first.text);
    assert.equal([again.status, again.body], [200, first.body], 'not "Only draft operations can be set to todo."');
  });

  test.run();
}
