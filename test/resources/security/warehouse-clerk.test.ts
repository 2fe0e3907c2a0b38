// The warehouse clerk of docs/users-and-roles.md, over every route: an administrator creates a
// "Warehouse clerk" role that may list and show inventory products and create receipts, and a user
// with it; the clerk (logged in, or through an API token) gets those and a 403 on every other list
// of the registry.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { routeTable } from '../../../engine/index.ts';
import { loadResources } from '../../../src/app/build-app.ts';
import { ADMIN, API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const CLERK = ['view_any_inventory_product', 'view_inventory_product', 'create_inventory_receipt'];

for (const target of databaseTargets()) {
  const test = suite(`warehouse clerk [${target.name}]`);
  let app: TestApp;
  const login = async (email: string, password: string) => (await app.client.post(`${API}/login`, { body: { email, password } })).body.token as string;

  test.before(async () => {
    app = await sharedApp(target);
  });

  test('the clerk may do exactly what the role says, by login or API token; the administrator everything', async () => {
    const admin = await login(ADMIN.email, ADMIN.password);
    const role = await app.client.post(`${API}/security/roles`, { token: admin, body: { name: `Warehouse clerk ${target.name}`, permissions: CLERK } });
    assert.is(role.status, 201, role.text);
    const email = `clerk.${target.name}@example.com`;
    // In every company, so that a nested list's parent (the administrator's first row, of any
    // company earlier tests created) is there for the clerk too: a 403 by the role, never a 404.
    const companies = (await app.client.get(`${API}/support/companies`, { token: admin, query: { per_page: 100 } })).body.data.map((company: { id: number }) => company.id);
    const user = await app.client.post(`${API}/security/users`, {
      token: admin,
      body: { name: 'Carl Clerk', email, password: 'carl-password', roles: [role.body.data.id], allowed_companies: companies },
    });
    assert.is(user.status, 201, user.text);
    const category = await app.knex('products_categories').orderBy('id').first('id');
    const product = await app.client.post(`${API}/inventories/products`, {
      token: admin,
      body: { type: 'goods', name: `Pallet ${target.name}`, price: 12, category_id: category.id },
    });
    assert.is(product.status, 201, product.text);

    const clerk = await login(email, 'carl-password');
    const issued = await app.client.post(`${API}/security/tokens`, { token: clerk, body: { name: 'Scanner', abilities: CLERK } });
    assert.is(issued.status, 201, issued.text);

    for (const token of [clerk, issued.body.token as string]) {
      assert.is((await app.client.get(`${API}/inventories/products`, { token })).status, 200);
      assert.is((await app.client.get(`${API}/inventories/products/${product.body.data.id}`, { token })).status, 200);
      const receipt = await app.client.post(`${API}/inventories/receipts`, { token, body: { moves: [{ product_id: product.body.data.id, product_uom_qty: 10 }] } });
      assert.is(receipt.status, 201, receipt.text);
      assert.is((await app.client.get(`${API}/inventories/receipts/${receipt.body.data.id}`, { token })).status, 403, 'creating is not viewing');
      assert.is((await app.client.put(`${API}/inventories/products/${product.body.data.id}`, { token, body: {} })).status, 403);
      assert.is((await app.client.delete(`${API}/inventories/products/${product.body.data.id}`, { token })).status, 403);
      assert.is((await app.client.post(`${API}/security/roles`, { token, body: { name: 'Mine', permissions: [] } })).status, 403);
    }

    // Every other list of the registry (nested ones under their parent's first record): 403 for
    // the clerk, 200 for the administrator.
    const registry = loadResources();
    for (const def of registry.all()) {
      const route = routeTable(def, API).find((r) => r.operation === 'list');
      if (!route || def.name === 'inventories/products') continue;
      // The parent as the administrator lists it: the table's first row may be one the parent's
      // resource does not serve (a variant under accounts/products, an archived product), a 404.
      const parentList = def.parent && routeTable(registry.get(def.parent.resource), API).find((r) => r.operation === 'list');
      const parent = parentList ? (await app.client.get(parentList.path, { token: admin, query: { per_page: 1 } })).body.data[0] : undefined;
      if (def.parent && !parent) continue; // nothing to nest under in this database yet
      const url = route.path.replace(/\{[a-z_]+\}/, String(parent?.id));
      assert.is((await app.client.get(url, { token: clerk })).status, 403, `${url} as the clerk`);
      assert.is((await app.client.get(url, { token: admin })).status, 200, `${url} as the administrator`);
    }
  });

  test.run();
}
