// Company scope (reference §1.8): a user sees and changes only rows of their companies and rows
// without one, new rows get their default company, and a company outside theirs is a 422.
// bypass_company_scope (held by Admin) lifts it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { userWith } from '../../helpers/access.ts';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const PRODUCTS = `${API}/products/products`;
const PARTNERS = `${API}/partners/partners`;
const PRODUCT_PERMISSIONS = ['view_any_product_product', 'view_product_product', 'create_product_product', 'update_product_product', 'delete_product_product'];

for (const target of databaseTargets()) {
  const test = suite(`company scope [${target.name}]`);
  let app: TestApp & { token: string };
  const ids: Record<string, number> = {};

  test.before(async () => {
    app = await sharedApp(target);
    const company = async (name: string) =>
      (await app.client.post(`${API}/support/companies`, { token: app.token, body: { name: `${name} ${target.name}`, currency_id: 1 } })).body.data.id as number;
    ids.north = await company('North');
    ids.south = await company('South');
    const category = await app.knex('products_categories').orderBy('id').first('id');
    const product = async (name: string, companyId: number | null) => {
      const response = await app.client.post(PRODUCTS, {
        token: app.token,
        body: { type: 'goods', name: `${name} ${target.name}`, price: 10, category_id: category.id, company_id: companyId },
      });
      assert.is(response.status, 201, response.text);
      return response.body.data.id as number;
    };
    ids.northProduct = await product('North chair', ids.north);
    ids.southProduct = await product('South chair', ids.south);
    ids.sharedProduct = await product('Shared chair', null);
    ids.category = category.id;
  });

  const northUser = () => userWith(app, { only: PRODUCT_PERMISSIONS, companies: [ids.north!] });

  test('lists and shows only rows of the user’s companies and rows without one', async () => {
    const { token } = await northUser();
    const list = await app.client.get(`${PRODUCTS}?per_page=100&sort=-id`, { token });
    assert.is(list.status, 200);
    const seen = list.body.data.map((row: any) => row.id);
    assert.ok(seen.includes(ids.northProduct), 'its company');
    assert.ok(seen.includes(ids.sharedProduct), 'no company');
    assert.not.ok(seen.includes(ids.southProduct), 'another company');
    for (const row of list.body.data) assert.ok(row.company_id === null || row.company_id === ids.north, `row ${row.id}`);
    assert.is(list.body.meta.total, list.body.data.length, 'the count is scoped too');
    assert.is((await app.client.get(`${PRODUCTS}/${ids.southProduct}`, { token })).status, 404, 'another company’s record is not there');
    assert.is((await app.client.get(`${PRODUCTS}/${ids.northProduct}`, { token })).status, 200);
  });

  test('changes only rows it can see: another company’s record is a 404 on update and delete', async () => {
    const { token } = await northUser();
    assert.is((await app.client.put(`${PRODUCTS}/${ids.southProduct}`, { token, body: { name: 'Taken over' } })).status, 404);
    assert.is((await app.client.delete(`${PRODUCTS}/${ids.southProduct}`, { token })).status, 404);
    const south = await app.knex('products_products').where('id', ids.southProduct).first('name', 'deleted_at');
    assert.equal(south, { name: `South chair ${target.name}`, deleted_at: null });
    assert.is((await app.client.put(`${PRODUCTS}/${ids.northProduct}`, { token, body: { name: `North chair v2 ${target.name}` } })).status, 200);
  });

  test('create fills the default company; a company outside the user’s is a 422, on create and update', async () => {
    const { token } = await northUser();
    const created = await app.client.post(PRODUCTS, { token, body: { type: 'goods', name: `Defaulted ${target.name}`, price: 5, category_id: ids.category } });
    assert.is(created.status, 201, created.text);
    assert.is(created.body.data.company_id, ids.north);
    const error = { company_id: ['The selected company id is not one of your companies.'] };
    const outside = await app.client.post(PRODUCTS, { token, body: { type: 'goods', name: `Outside ${target.name}`, price: 5, category_id: ids.category, company_id: ids.south } });
    assert.is(outside.status, 422);
    assert.equal(outside.body.errors, error);
    assert.is(await app.knex('products_products').where('name', `Outside ${target.name}`).first('id'), undefined);
    const moved = await app.client.put(`${PRODUCTS}/${created.body.data.id}`, { token, body: { company_id: ids.south } });
    assert.equal(moved.body.errors, error);
    const cleared = await app.client.put(`${PRODUCTS}/${created.body.data.id}`, { token, body: { company_id: null } });
    assert.is(cleared.status, 200, 'no company is always allowed');
  });

  test('a resource that does not assign a company (partners) leaves it empty', async () => {
    const { token } = await userWith(app, { only: ['create_partner_partner'], companies: [ids.north!] });
    const created = await app.client.post(PARTNERS, { token, body: { account_type: 'company', name: `Unassigned ${target.name}` } });
    assert.is(created.status, 201, created.text);
    assert.is(created.body.data.company_id, null);
  });

  test('nested records of a hidden parent are hidden too', async () => {
    const southPartner = await app.client.post(PARTNERS, { token: app.token, body: { account_type: 'company', name: `South partner ${target.name}`, company_id: ids.south } });
    const addresses = `${PARTNERS}/${southPartner.body.data.id}/addresses`;
    const address = await app.client.post(addresses, { token: app.token, body: { sub_type: 'invoice', name: `South office ${target.name}` } });
    assert.is(address.status, 201, address.text);
    const { token } = await userWith(app, { only: ['view_partner_partner', 'update_partner_partner'], companies: [ids.north!] });
    assert.is((await app.client.get(addresses, { token })).status, 404);
    // The address names its parent by foreign key, but the parent is out of this user's companies.
    assert.is((await app.client.get(`${addresses}/${address.body.data.id}`, { token })).status, 404, 'show under a hidden parent');
    assert.is((await app.client.get(`${addresses}/${address.body.data.id}`, { token: app.token })).status, 200, 'the administrator sees it');
  });

  test('bypass_company_scope (the Admin role holds it) sees every company', async () => {
    const { token } = await userWith(app, { only: [...PRODUCT_PERMISSIONS, 'bypass_company_scope'], companies: [ids.north!] });
    assert.is((await app.client.get(`${PRODUCTS}/${ids.southProduct}`, { token })).status, 200);
    assert.is((await app.client.get(`${PRODUCTS}/${ids.southProduct}`, { token: app.token })).status, 200, 'the administrator');
    const placed = await app.client.post(PRODUCTS, { token, body: { type: 'goods', name: `Placed ${target.name}`, price: 5, category_id: ids.category, company_id: ids.south } });
    assert.is(placed.status, 201);
  });

  test.run();
}
