// Operation types and rules: defaults of a new type (sort, company, reservation and shipping
// policy), the numbers of its operations and their prefix renamed with it; a rule's warehouse follows its
// operation type; a route or type that rules still use is not deleted for good.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const TYPES = `${API}/inventories/operation-types`;
const RULES = `${API}/inventories/rules`;
const ROUTES = `${API}/inventories/routes`;

for (const target of databaseTargets()) {
  const test = suite(`inventory operation types and rules [${target.name}]`);

  const setup = async (client: any, token: string) => {
    const warehouse = (await client.get(`${API}/inventories/warehouses?filter[code]=WH`, { token })).body.data[0];
    const stock = warehouse.lot_stock_location_id;
    return { warehouse, stock };
  };

  test('a new type: sort appended, the warehouse company, default policies, a sequence named after the warehouse', async () => {
    const { client, token, knex } = await sharedApp(target);
    const { warehouse, stock } = await setup(client, token);
    const highest = Number((await knex('inventories_operation_types').max({ sort: 'sort' }).first())!.sort);
    const created = await client.post(TYPES, {
      token,
      body: {
        name: 'Quality Control',
        type: 'internal',
        sequence_code: 'QC',
        create_backorder: 'never',
        source_location_id: stock,
        destination_location_id: stock,
        warehouse_id: warehouse.id,
      },
    });
    assert.is(created.status, 201, created.text);
    assert.is(created.body.message, 'Operation type created successfully.');
    const type = created.body.data;
    assert.is(type.sort, highest + 1);
    assert.is(type.company_id, warehouse.company_id);
    assert.is(type.reservation_method, 'at_confirm');
    assert.is(type.move_type, 'direct');
    assert.is(type.print_label, false);
    assert.is(type.show_entire_packs, false);
    for (const key of ['return_operation_type', 'source_location', 'destination_location', 'warehouse', 'company', 'creator']) {
      assert.not.ok(key in type, `${key} only when included`);
    }
    // Its own counter, made when it numbers its first operation, named after the warehouse.
    const transfer = async () => {
      const made = await client.post(`${API}/inventories/internal-transfers`, { token, body: { operation_type_id: type.id } });
      assert.is(made.status, 201, made.text);
      return made.body.data.name;
    };
    assert.is(await transfer(), 'WH/QC/00001');
    const code = `inventories.operation_type.${type.id}`;
    assert.is(Number((await knex('sequences').where('code', code).first()).company_id), warehouse.company_id);

    await knex('sequences').where('code', code).update({ next_number: 7 });
    const renamed = await client.put(`${TYPES}/${type.id}`, { token, body: { sequence_code: 'QUAL' } });
    assert.is(renamed.status, 200, renamed.text);
    assert.is(await transfer(), 'WH/QUAL/00007', 'the prefix renamed, the numbering goes on');
    await client.put(`${TYPES}/${type.id}`, { token, body: { warehouse_id: null } });
    assert.is(await transfer(), 'QUAL/00008', 'no warehouse, no warehouse code');
  });

  test('a type without a warehouse or company belongs to the first company; a null company is refused', async () => {
    const { client, token, knex } = await sharedApp(target);
    const { stock } = await setup(client, token);
    const body = { name: 'Returns', type: 'incoming', sequence_code: 'RET', create_backorder: 'ask', source_location_id: stock, destination_location_id: stock };
    const created = await client.post(TYPES, { token, body });
    assert.is(created.status, 201, created.text);
    assert.is(created.body.data.company_id, Number((await knex('companies').orderBy('id').first('id')).id));
    assert.is(created.body.data.warehouse_id, null);
    const refused = await client.post(TYPES, { token, body: { ...body, company_id: null } });
    assert.is(refused.status, 422);
    assert.ok(refused.body.errors.company_id);
  });

  test("a rule takes its operation type's warehouse and company; the route and type it uses stay", async () => {
    const { client, token } = await sharedApp(target);
    const { warehouse, stock } = await setup(client, token);
    const route = (await client.post(ROUTES, { token, body: { name: 'Replenish from the annex', warehouse_selectable: true } })).body.data;
    assert.is(route.product_selectable, false);
    const receipts = (await client.get(`${TYPES}?filter[type]=incoming&sort=sort,id`, { token })).body.data[0];
    const dropship = (await client.get(`${TYPES}?filter[type]=dropship&sort=sort,id`, { token })).body.data[0];
    const body = { name: 'Annex → Stock', action: 'pull', operation_type_id: receipts.id, source_location_id: stock, destination_location_id: stock, route_id: route.id };
    const created = await client.post(RULES, { token, body });
    assert.is(created.status, 201, created.text);
    const rule = created.body.data;
    assert.is(rule.warehouse_id, warehouse.id);
    assert.is(rule.company_id, warehouse.company_id);
    assert.is(rule.delay, 0);
    assert.is(rule.group_propagation_option, 'propagate');
    assert.is(rule.procure_method, 'make_to_stock');
    assert.is(rule.auto, 'manual');

    const retyped = await client.put(`${RULES}/${rule.id}`, { token, body: { operation_type_id: dropship.id } });
    assert.is(retyped.body.data.warehouse_id, null, 'the dropship type has no warehouse');
    const negative = await client.put(`${RULES}/${rule.id}`, { token, body: { delay: -1 } });
    assert.equal(negative.body.errors, { delay: ['The delay field must be at least 0.'] });

    const routeGone = await client.delete(`${ROUTES}/${route.id}/force`, { token });
    assert.is(routeGone.status, 409, routeGone.text);
    assert.match(routeGone.body.message, /^The Route cannot be deleted because it still has Rule records/);
    await client.delete(`${RULES}/${rule.id}`, { token });
    assert.is((await client.delete(`${ROUTES}/${route.id}/force`, { token })).status, 409, 'a trashed rule still holds its route');
    const ruleGone = await client.delete(`${RULES}/${rule.id}/force`, { token });
    assert.equal(ruleGone.body, { message: 'Rule permanently deleted successfully.' });
    const routeRemoved = await client.delete(`${ROUTES}/${route.id}/force`, { token });
    assert.equal(routeRemoved.body, { message: 'Route permanently deleted successfully.' });

    const typeGone = await client.delete(`${TYPES}/${receipts.id}/force`, { token });
    assert.is(typeGone.status, 409, 'the receipt type is used by the seeded rules');
  });

  test('package types: a barcode is unique (422), dimensions are numbers', async () => {
    const { client, token } = await sharedApp(target);
    const body = { name: 'Euro pallet', barcode: 'EUR-PALLET', length: 120, width: 80, height: 14.4, base_weight: 25, max_weight: 1500 };
    const created = await client.post(`${API}/inventories/package-types`, { token, body });
    assert.is(created.status, 201, created.text);
    assert.is(created.body.data.height, 14.4);
    assert.is(created.body.data.max_weight, 1500);
    assert.ok(created.body.data.company_id, 'the first company');
    const duplicate = await client.post(`${API}/inventories/package-types`, { token, body: { ...body, name: 'Another pallet' } });
    assert.is(duplicate.status, 422);
    assert.equal(duplicate.body.errors, { barcode: ['The barcode has already been taken.'] });
    const deleted = await client.delete(`${API}/inventories/package-types/${created.body.data.id}`, { token });
    assert.equal(deleted.body, { message: 'Package type deleted successfully.' });
  });

  test.run();
}
