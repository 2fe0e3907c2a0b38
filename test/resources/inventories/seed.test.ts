// The inventories setup of a fresh installation: the location tree, the warehouse WH with its view
// and stock locations, the four operation types with their sequences (a receipt, an internal
// transfer and a dropship each have a live default type), the routes and the rules linking them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createKnex } from '../../../src/database/connection.ts';
import { migrateLatest } from '../../../src/database/migrations.ts';
import { seed } from '../../../src/seed/index.ts';
import { seedInventories } from '../../../src/seed/inventories.ts';
import { API, sharedApp } from '../../helpers/app.ts';
import { databaseTargets, inThisRun } from '../../helpers/targets.ts';

const TABLES = [
  'inventories_locations',
  'inventories_warehouses',
  'inventories_operation_types',
  'inventories_routes',
  'inventories_route_warehouses',
  'inventories_rules',
  'sequences',
  'inventories_tags',
  'inventories_package_types',
];
const SEED_ADMIN = { adminEmail: 'owner@example.com', adminName: 'Owner', adminPassword: 'owner-password-1' };

for (const target of databaseTargets()) {
  const test = suite(`inventories seed [${target.name}]`);

  test('the receipt type brings stock from Partners/Vendors into WH/Stock and numbers WH/IN/', async () => {
    const { client, token, knex } = await sharedApp(target);
    const list = await client.get(
      `${API}/inventories/operation-types?filter[type]=incoming&sort=sort,id&include=sourceLocation,destinationLocation,returnOperationType,warehouse`,
      { token },
    );
    assert.is(list.status, 200, list.text);
    const receipts = list.body.data[0];
    assert.is(receipts.name, 'Receipts');
    assert.is(receipts.sequence_code, 'IN');
    assert.is(receipts.reservation_method, 'at_confirm');
    assert.is(receipts.create_backorder, 'ask');
    assert.is(receipts.move_type, 'direct');
    assert.is(receipts.source_location.full_name, 'Partners/Vendors');
    assert.is(receipts.source_location.type, 'supplier');
    assert.is(receipts.destination_location.full_name, 'WH/Stock');
    assert.is(receipts.destination_location.type, 'internal');
    assert.is(receipts.return_operation_type.name, 'Delivery Orders');
    assert.is(receipts.warehouse.code, 'WH');
    const sequence = await knex('sequences').where('code', `inventories.operation_type.${receipts.id}`).first();
    assert.ok(sequence, 'the receipt type has its sequence');
    assert.is(sequence.prefix, 'WH/IN/');
    assert.is(Number(sequence.padding), 5);
    assert.is(Number(sequence.company_id), receipts.company_id);
  });

  test('receipts, deliveries, internal transfers and dropships each have a live type and a sequence', async () => {
    const { client, token, knex } = await sharedApp(target);
    const expected = [
      ['incoming', 'Receipts', 'WH/IN/', 'Partners/Vendors', 'WH/Stock'],
      ['outgoing', 'Delivery Orders', 'WH/OUT/', 'WH/Stock', 'Partners/Customers'],
      ['internal', 'Internal Transfers', 'WH/INT/', 'WH/Stock', 'WH/Stock'],
      ['dropship', 'Dropship', 'DS/', 'Partners/Vendors', 'Partners/Customers'],
    ];
    for (const [type, name, prefix, source, destination] of expected) {
      const list = await client.get(`${API}/inventories/operation-types?filter[type]=${type}&sort=sort,id&include=sourceLocation,destinationLocation`, { token });
      const first = list.body.data[0];
      assert.is(first?.name, name, `the default ${type} type`);
      assert.is(first.deleted_at, null);
      assert.is(first.source_location.full_name, source, `${name} source`);
      assert.is(first.destination_location.full_name, destination, `${name} destination`);
      const sequence = await knex('sequences').where('code', `inventories.operation_type.${first.id}`).first('prefix', 'padding');
      assert.is(sequence?.prefix, prefix, `${name} sequence prefix`);
    }
  });

  test('the warehouse WH of My Company points at its view and stock locations, types and routes', async () => {
    const { client, token } = await sharedApp(target);
    const includes = 'company,partnerAddress,viewLocation,lotStockLocation,inType,outType,internalType,receptionRoute,deliveryRoute,locations';
    const list = await client.get(`${API}/inventories/warehouses?filter[code]=WH&include=${includes}`, { token });
    assert.is(list.body.meta.total, 1);
    const warehouse = list.body.data[0];
    assert.is(warehouse.name, 'My Company');
    assert.is(warehouse.company.name, 'My Company');
    assert.is(warehouse.partner_address.name, 'My Company');
    assert.is(warehouse.reception_steps, 'one_step');
    assert.is(warehouse.delivery_steps, 'ship_only');
    assert.is(warehouse.view_location.full_name, 'WH');
    assert.is(warehouse.view_location.type, 'view');
    assert.is(warehouse.lot_stock_location.full_name, 'WH/Stock');
    assert.is(warehouse.lot_stock_location.barcode, 'WHSTOCK');
    assert.is(warehouse.lot_stock_location.is_replenish, true);
    assert.is(warehouse.in_type.name, 'Receipts');
    assert.is(warehouse.out_type.name, 'Delivery Orders');
    assert.is(warehouse.internal_type.name, 'Internal Transfers');
    assert.is(warehouse.reception_route.name, 'My Company: Receive in 1 step (Stock)');
    assert.is(warehouse.delivery_route.name, 'My Company: Deliver in 1 step (Ship)');
    const own = warehouse.locations.map((l: any) => l.full_name);
    assert.ok(own.includes('WH') && own.includes('WH/Stock'), 'its locations');
  });

  test('the location tree: full names and parent paths', async () => {
    const { client, token } = await sharedApp(target);
    const list = await client.get(`${API}/inventories/locations?per_page=100&sort=id`, { token });
    const byFullName = new Map<string, any>(list.body.data.map((l: any) => [l.full_name, l]));
    for (const [fullName, type, parent] of [
      ['Physical Locations', 'view', null],
      ['Partners', 'view', null],
      ['Virtual Locations', 'view', null],
      ['Partners/Vendors', 'supplier', 'Partners'],
      ['Partners/Customers', 'customer', 'Partners'],
      ['Virtual Locations/Inventory Adjustment', 'inventory', 'Virtual Locations'],
      ['Virtual Locations/Production', 'production', 'Virtual Locations'],
      ['Virtual Locations/Scrap', 'inventory', 'Virtual Locations'],
      ['WH', 'view', 'Physical Locations'],
      ['WH/Stock', 'internal', 'WH'],
    ] as const) {
      const location = byFullName.get(fullName);
      assert.ok(location, fullName);
      assert.is(location.type, type, `${fullName} type`);
      const parentRow = parent === null ? undefined : byFullName.get(parent);
      assert.is(location.parent_id, parentRow?.id ?? null, `${fullName} parent`);
      assert.is(location.parent_path, `${parentRow?.parent_path ?? ''}${location.id}/`, `${fullName} parent_path`);
    }
    assert.is(byFullName.get('Virtual Locations/Scrap').is_scrap, true);
    assert.is(byFullName.get('Partners/Vendors').company_id, null, 'partner locations are shared by all companies');
  });

  test('the live rules link the routes, operation types and locations', async () => {
    const { client, token } = await sharedApp(target);
    const includes = 'route,operationType,sourceLocation,destinationLocation,warehouse';
    const rules = await client.get(`${API}/inventories/rules?per_page=100&sort=id&include=${includes}`, { token });
    const byName = new Map<string, any>(rules.body.data.map((r: any) => [r.name, r]));
    for (const [name, action, route, operationType, source, destination, warehouse] of [
      ['WH: Vendors → Stock', 'pull', 'My Company: Receive in 1 step (Stock)', 'Receipts', 'Partners/Vendors', 'WH/Stock', 'WH'],
      ['WH: Stock → Customers', 'pull', 'My Company: Deliver in 1 step (Ship)', 'Delivery Orders', 'WH/Stock', 'Partners/Customers', 'WH'],
      ['Vendors → Customers', 'buy', 'Dropship', 'Dropship', 'Partners/Vendors', 'Partners/Customers', null],
    ] as const) {
      const rule = byName.get(name);
      assert.ok(rule, name);
      assert.is(rule.action, action);
      assert.is(rule.route.name, route);
      assert.is(rule.route.deleted_at, null);
      assert.is(rule.operation_type.name, operationType);
      assert.is(rule.source_location.full_name, source);
      assert.is(rule.destination_location.full_name, destination);
      assert.is(rule.warehouse?.code ?? null, warehouse);
      assert.is(rule.procure_method, 'make_to_stock');
      assert.is(rule.group_propagation_option, 'propagate');
    }
  });

  test.run();
}

// Seeding logic is the same on every database: once, on a database of its own in memory.
const once = suite('inventories seed: idempotent');

once('the setup is seeded once, with fresh sequences; a renamed or deleted row does not come back', async () => {
  const knex = createKnex({ client: 'sqlite', filename: ':memory:' });
  try {
    await migrateLatest(knex);
    await seed(knex, SEED_ADMIN);
    const count = async (table: string) => Number((await knex(table).count({ n: '*' }).first())!.n);
    assert.is(await count('inventories_locations'), 10);
    assert.is(await count('inventories_warehouses'), 1);
    assert.is(await count('inventories_operation_types'), 4);
    assert.is(await count('inventories_routes'), 3);
    assert.is(await count('inventories_rules'), 3);
    assert.is(await count('inventories_tags'), 0, 'no tags, as in the original');
    assert.is(await count('inventories_package_types'), 0);
    assert.is(await knex('inventories_locations').whereNotNull('deleted_at').first(), undefined, 'nothing is seeded trashed');
    const sequences = await knex('sequences').where('code', 'like', 'inventories.operation_type.%').orderBy('id').select('prefix', 'padding', 'next_number');
    assert.equal(
      sequences.map((s) => [s.prefix, Number(s.padding), Number(s.next_number)]),
      [
        ['WH/IN/', 5, 1],
        ['WH/OUT/', 5, 1],
        ['WH/INT/', 5, 1],
        ['DS/', 5, 1],
      ],
    );

    await knex('inventories_locations').where('name', 'Production').update({ name: 'Manufacturing', full_name: 'Virtual Locations/Manufacturing' });
    await knex('inventories_rules').where('name', 'Vendors → Customers').delete();
    const before = Object.fromEntries(await Promise.all(TABLES.map(async (table) => [table, await count(table)])));
    await seed(knex, SEED_ADMIN);
    assert.is(await seedInventories(knex, null), 0, 'nothing added the second time');
    const after = Object.fromEntries(await Promise.all(TABLES.map(async (table) => [table, await count(table)])));
    assert.equal(after, before);
    assert.is(await knex('inventories_locations').where('name', 'Production').first(), undefined);
  } finally {
    await knex.destroy();
  }
});

// The same in both halves of a run on both databases (test/run.ts): run in the SQLite one only.
if (inThisRun('sqlite')) once.run();
