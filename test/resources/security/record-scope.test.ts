// Record scope (reference §1.8, `hasAccess`): changing an owned record (an order's or a stock
// operation's `user_id`) needs `global`, or `group` with the owner in one of the user's sales
// teams, or `individual` with the user as the owner. Reading is not limited by it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { userWith } from '../../helpers/access.ts';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const ORDERS = `${API}/sales/orders`;
const ORDER_PERMISSIONS = [
  'view_any_sale_order',
  'view_sale_order',
  'create_sale_order',
  'update_sale_order',
  'delete_sale_order',
  'restore_sale_order',
  'force_delete_sale_order',
];

for (const target of databaseTargets()) {
  const test = suite(`record scope [${target.name}]`);
  let app: TestApp & { token: string };
  const ids: Record<string, number> = {};
  const tokens: Record<string, string> = {};

  test.before(async () => {
    app = await sharedApp(target);
    for (const [name, scope] of [
      ['solo', 'individual'],
      ['lead', 'group'],
      ['mate', 'group'],
      ['outsider', 'group'],
      ['boss', 'global'],
    ] as const) {
      const user = await userWith(app, { only: ORDER_PERMISSIONS, resourcePermission: scope, companies: [1], name });
      ids[name] = user.id;
      tokens[name] = user.token;
    }
    // A sales team: `lead` leads it, `mate` is a member.
    const team = await app.client.post(`${API}/sales/teams?include=members`, { token: app.token, body: { name: `Team ${target.name}`, user_id: ids.lead, members: [ids.mate] } });
    assert.is(team.status, 201, team.text);
    assert.equal(
      team.body.data.members.map((m: any) => m.id),
      [ids.mate],
    );
    ids.partner = (await app.client.post(`${API}/partners/partners`, { token: app.token, body: { account_type: 'company', name: `Scope customer ${target.name}` } })).body.data.id;
    const category = await app.knex('products_categories').orderBy('id').first('id');
    const product = await app.client.post(`${API}/products/products`, {
      token: app.token,
      body: { type: 'goods', name: `Scope product ${target.name}`, price: 10, category_id: category.id },
    });
    assert.is(product.status, 201, product.text);
    ids.product = product.body.data.id;
    ids.term = (await app.knex('accounts_payment_terms').whereNull('deleted_at').orderBy('id').first('id')).id;
  });

  const orderOf = async (owner: string) => {
    const body = {
      partner_id: ids.partner,
      payment_term_id: ids.term,
      date_order: '2025-03-14',
      user_id: ids[owner],
      lines: [{ product_id: ids.product, product_qty: 1, price_unit: 10 }],
    };
    const created = await app.client.post(ORDERS, { token: app.token, body });
    assert.is(created.status, 201, created.text);
    return created.body.data.id as number;
  };
  const update = async (who: string, id: number) => (await app.client.put(`${ORDERS}/${id}`, { token: tokens[who], body: { note: `by ${who}` } })).status;

  test('individual: only their own orders', async () => {
    assert.is(await update('solo', await orderOf('solo')), 200);
    const others = await orderOf('boss');
    assert.is(await update('solo', others), 403);
    assert.is((await app.client.get(`${ORDERS}/${others}`, { token: tokens.solo })).status, 200, 'reading is not limited');
    assert.is((await app.client.delete(`${ORDERS}/${others}`, { token: tokens.solo })).status, 403);
    assert.is((await app.knex('sales_orders').where('id', others).first('deleted_at')).deleted_at, null);
    const unowned = await orderOf('boss');
    await app.knex('sales_orders').where('id', unowned).update({ user_id: null });
    assert.is(await update('solo', unowned), 403, 'an order without an owner is for global users only');
    assert.is(await update('boss', unowned), 200);
  });

  test('group: their own and their team mates’ orders, both ways, and no one else’s', async () => {
    assert.is(await update('lead', await orderOf('mate')), 200, 'the leader changes a member’s order');
    assert.is(await update('mate', await orderOf('lead')), 200, 'a member changes the leader’s order');
    assert.is(await update('outsider', await orderOf('mate')), 403, 'not in the team');
    assert.is(await update('outsider', await orderOf('outsider')), 200, 'their own');
  });

  test('global: every order; restore and force delete check the scope too', async () => {
    const id = await orderOf('mate');
    assert.is(await update('boss', id), 200);
    assert.is((await app.client.delete(`${ORDERS}/${id}`, { token: tokens.boss })).status, 200);
    assert.is((await app.client.post(`${ORDERS}/${id}/restore`, { token: tokens.solo })).status, 403);
    assert.is((await app.client.delete(`${ORDERS}/${id}/force`, { token: tokens.solo })).status, 403);
    assert.is((await app.client.post(`${ORDERS}/${id}/restore`, { token: tokens.lead })).status, 200);
  });

  test('a change of team takes effect on the next request', async () => {
    const id = await orderOf('mate');
    assert.is(await update('outsider', id), 403);
    const team = await app.knex('sales_teams').where('name', `Team ${target.name}`).first('id');
    const joined = await app.client.put(`${API}/sales/teams/${team.id}`, { token: app.token, body: { members: [ids.mate, ids.outsider] } });
    assert.is(joined.status, 200);
    assert.is(await update('outsider', id), 200);
  });

  test('a team deleted then restored: its leader loses the mates’ orders, and has them back on the next request', async () => {
    const id = await orderOf('mate');
    assert.is(await update('lead', id), 200, 'the team is cached with the lead');
    const team = await app.knex('sales_teams').where('name', `Team ${target.name}`).first('id');
    assert.is((await app.client.delete(`${API}/sales/teams/${team.id}`, { token: app.token })).status, 200);
    assert.is(await update('lead', id), 403, 'no team: not the lead’s record');
    const restored = await app.client.post(`${API}/sales/teams/${team.id}/restore`, { token: app.token });
    assert.is(restored.status, 200, restored.text);
    assert.is(await update('lead', id), 200, 'the restored team counts again');
  });

  test.run();
}
