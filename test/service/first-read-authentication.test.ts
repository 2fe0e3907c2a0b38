// List, show, and create under a parent send the token check with their first read once a process has
// seen the token (engine/sql/pending-authentication.ts). The check must stay exact: a token
// revoked or a user changed elsewhere is seen on the very next request, a 401 still comes before
// the request's own errors, and the read uses the user's access as it is now.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bumpAccessVersion } from '../../src/access/access-version.ts';
import { userWith } from '../helpers/access.ts';
import { ADMIN, API, startApp, type TestApp } from '../helpers/app.ts';
import { databaseTargets } from '../helpers/targets.ts';

const UNAUTHENTICATED = { message: 'Unauthenticated.' };
const CATEGORIES = `${API}/support/uom-categories`;
const PRODUCTS = `${API}/products/products`;

for (const target of databaseTargets()) {
  const test = suite(`authentication with the first read [${target.name}]`);
  let first: TestApp;
  let second: TestApp;
  let dir: string | undefined;
  let admin: string;
  let categoryId: number;
  let uomUrl: string;

  const login = async (app: TestApp) => (await app.client.post(`${API}/login`, { body: { email: ADMIN.email, password: ADMIN.password } })).body.token as string;
  const newUom = (token: string, parent = categoryId, name = `First read box ${Math.random()}`) =>
    second.client.post(`${CATEGORIES}/${parent}/uoms`, { token, body: { type: 'bigger', name, factor: 10, rounding: 0.01, category_id: parent } });

  test.before(async () => {
    // Two processes on one database: a file for SQLite, the run's database for MySQL.
    if (target.name === 'sqlite') dir = mkdtempSync(join(tmpdir(), 'erp-first-read-'));
    const env = { DATABASE_URL: dir ? `sqlite:${join(dir, 'erp.sqlite')}` : target.databaseUrl };
    first = await startApp(target, { minimalSeed: true, env });
    second = await startApp(target, { minimalSeed: true, env });
    admin = await login(first);
    categoryId = (await first.client.post(CATEGORIES, { token: admin, body: { name: `First read ${target.name}` } })).body.data.id;
    const uom = await newUom(admin);
    assert.is(uom.status, 201, uom.text);
    uomUrl = `${CATEGORIES}/${categoryId}/uoms/${uom.body.data.id}`;
  });

  test.after(async () => {
    await second?.close();
    await first?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('a token revoked in one process is refused on the next show and create in another that had seen it', async () => {
    const token = await login(first);
    // Twice: the first request checks the token on its own, the second with its read.
    for (let i = 0; i < 2; i++) assert.is((await second.client.get(uomUrl, { token })).status, 200);
    assert.is((await newUom(token)).status, 201);

    assert.is((await second.client.get(`${CATEGORIES}/${categoryId}/uoms`, { token })).status, 200);

    assert.is((await first.client.post(`${API}/logout`, { token })).status, 200);
    const shown = await second.client.get(uomUrl, { token });
    assert.is(shown.status, 401);
    assert.equal(shown.body, UNAUTHENTICATED);
    const listed = await second.client.get(`${CATEGORIES}/${categoryId}/uoms`, { token });
    assert.is(listed.status, 401);
    assert.equal(listed.body, UNAUTHENTICATED);
    const before = await first.knex('unit_of_measures').count({ n: '*' });
    const created = await newUom(token);
    assert.is(created.status, 401);
    assert.equal(created.body, UNAUTHENTICATED);
    assert.equal(await first.knex('unit_of_measures').count({ n: '*' }), before, 'nothing was written');
  });

  test('a revoked token gets 401, not the error its request would otherwise get', async () => {
    const token = await login(first);
    assert.is((await second.client.get(uomUrl, { token })).status, 200);
    const cases = [
      () => second.client.get(`${uomUrl}?include=nothing`, { token }),
      () => second.client.get(`${CATEGORIES}/${categoryId}/uoms/999999999`, { token }),
      () => second.client.get(`${CATEGORIES}/999999999/uoms/1`, { token }),
      () => second.client.get(`${CATEGORIES}/${categoryId}/uoms?filter[nothing]=1`, { token }),
      () => second.client.get(`${CATEGORIES}/999999999/uoms`, { token }),
      () => second.client.post(`${CATEGORIES}/999999999/uoms`, { token, body: { type: 'sideways' } }),
    ];
    const live = await Promise.all(cases.map((request) => request()));
    assert.equal(
      live.map((response) => response.status),
      [400, 404, 404, 400, 404, 422],
      'a live token gets the request’s own errors',
    );
    assert.is((await first.client.post(`${API}/logout`, { token })).status, 200);
    for (const request of cases) {
      const refused = await request();
      assert.is(refused.status, 401, refused.text);
      assert.equal(refused.body, UNAUTHENTICATED);
    }
  });

  test('an API token deleted in one process is refused by the next show in another', async () => {
    const created = await first.client.post(`${API}/security/tokens`, { token: admin, body: { name: 'First read sync', abilities: ['view_support_u::o::m::category'] } });
    assert.is(created.status, 201, created.text);
    const token = created.body.token as string;
    for (let i = 0; i < 2; i++) assert.is((await second.client.get(uomUrl, { token })).status, 200);
    assert.is((await first.client.delete(`${API}/security/tokens/${created.body.data.id}`, { token: admin })).status, 200);
    assert.is((await second.client.get(uomUrl, { token })).status, 401);
  });

  test('a change of companies made elsewhere applies to the next show and list', async () => {
    // The minimal seed has no currencies.
    const [currencyId] = await first.knex('currencies').insert({ name: 'FRA', full_name: 'First read unit', created_at: '2026-01-01 00:00:00', updated_at: '2026-01-01 00:00:00' });
    const company = async (name: string) => {
      const created = await first.client.post(`${API}/support/companies`, { token: admin, body: { name: `${name} ${target.name}`, currency_id: Number(currencyId) } });
      assert.is(created.status, 201, created.text);
      return created.body.data.id as number;
    };
    const north = await company('First read north');
    const south = await company('First read south');
    const category = await first.client.post(`${API}/products/categories`, { token: admin, body: { name: `First read ${target.name}` } });
    assert.is(category.status, 201, category.text);
    const product = await first.client.post(PRODUCTS, {
      token: admin,
      body: { type: 'goods', name: `First read chair ${target.name}`, price: 1, category_id: category.body.data.id, company_id: north },
    });
    assert.is(product.status, 201, product.text);
    const url = `${PRODUCTS}/${product.body.data.id}`;
    const user = await userWith(second, { only: ['view_product_product', 'view_any_product_product'], companies: [north] });
    for (let i = 0; i < 2; i++) assert.is((await second.client.get(url, { token: user.token })).status, 200);
    const listed = async () => {
      const list = await second.client.get(`${PRODUCTS}?filter[id]=${product.body.data.id}`, { token: user.token });
      assert.is(list.status, 200, list.text);
      assert.is(list.body.meta.total, list.body.data.length);
      return list.body.data.length;
    };
    assert.is(await listed(), 1);

    // Written to the database as another process would: only the access version tells this one.
    await first.knex.transaction(async (trx) => {
      await trx('user_companies').where('user_id', user.id).delete();
      await trx('user_companies').insert({ user_id: user.id, company_id: south });
      await trx('users').where('id', user.id).update({ default_company_id: south });
      await bumpAccessVersion(trx);
    });
    assert.is((await second.client.get(url, { token: user.token })).status, 404, 'no longer one of the user’s companies');
    assert.is(await listed(), 0, 'nor in the list');
    await first.knex.transaction(async (trx) => {
      await trx('user_companies').insert({ user_id: user.id, company_id: north });
      await bumpAccessVersion(trx);
    });
    assert.is(await listed(), 1, 'given back: the list first');
    assert.is((await second.client.get(url, { token: user.token })).status, 200, 'given back');
  });

  test('a nested create with an Idempotency-Key is still answered once', async () => {
    const token = await login(first);
    assert.is((await second.client.get(uomUrl, { token })).status, 200);
    const body = { type: 'bigger', name: `First read once ${target.name}`, factor: 10, rounding: 0.01, category_id: categoryId };
    const send = () => second.client.post(`${CATEGORIES}/${categoryId}/uoms`, { token, body, headers: { 'idempotency-key': `first-read-${target.name}` } });
    const [one, two] = [await send(), await send()];
    assert.is(one.status, 201, one.text);
    assert.equal(two.body, one.body);
    assert.equal(await first.knex('unit_of_measures').where('name', body.name).count({ n: '*' }), [{ n: 1 }]);
  });

  test.run();
}
