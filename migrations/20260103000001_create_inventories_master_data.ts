// The inventories module's master data: warehouses, locations, operation types, routes, rules,
// package types and tags, with the route pivots (warehouses, products). Column names follow the
// original. Warehouses and locations point at each other, and warehouses also point at their
// operation types, routes and rules: those warehouse columns are added once the tables exist.
import type { Knex } from 'knex';
import { creator, foreignId, softDeletes, timestamps } from './helpers.ts';

/** Warehouse columns that point at tables created after inventories_warehouses. */
const WAREHOUSE_LINKS: Array<[column: string, table: string, onDelete: 'RESTRICT' | 'SET NULL']> = [
  ['view_location_id', 'inventories_locations', 'RESTRICT'],
  ['lot_stock_location_id', 'inventories_locations', 'RESTRICT'],
  ['input_stock_location_id', 'inventories_locations', 'SET NULL'],
  ['qc_stock_location_id', 'inventories_locations', 'SET NULL'],
  ['output_stock_location_id', 'inventories_locations', 'SET NULL'],
  ['pack_stock_location_id', 'inventories_locations', 'SET NULL'],
  ['mto_pull_id', 'inventories_rules', 'SET NULL'],
  ['buy_pull_id', 'inventories_rules', 'SET NULL'],
  ['pick_type_id', 'inventories_operation_types', 'SET NULL'],
  ['pack_type_id', 'inventories_operation_types', 'SET NULL'],
  ['out_type_id', 'inventories_operation_types', 'SET NULL'],
  ['in_type_id', 'inventories_operation_types', 'SET NULL'],
  ['internal_type_id', 'inventories_operation_types', 'SET NULL'],
  ['qc_type_id', 'inventories_operation_types', 'SET NULL'],
  ['store_type_id', 'inventories_operation_types', 'SET NULL'],
  ['xdock_type_id', 'inventories_operation_types', 'SET NULL'],
  ['crossdock_route_id', 'inventories_routes', 'RESTRICT'],
  ['reception_route_id', 'inventories_routes', 'RESTRICT'],
  ['delivery_route_id', 'inventories_routes', 'RESTRICT'],
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('inventories_tags', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().unique('inventories_tags_name_unique');
    t.string('color', 255).nullable().index();
    t.integer('sort').nullable().index();
    creator(t);
    timestamps(t);
    t.index('updated_at');
    softDeletes(t);
  });

  await knex.schema.createTable('inventories_package_types', (t) => {
    t.increments('id');
    t.integer('sort').nullable().index();
    t.string('name', 255).notNullable().index();
    t.string('barcode', 255).nullable().unique('inventories_package_types_barcode_unique');
    for (const dimension of ['height', 'width', 'length', 'base_weight', 'max_weight']) {
      t.decimal(dimension, 15, 4).nullable().defaultTo(0).index();
    }
    t.string('shipper_package_code', 255).nullable();
    t.string('package_carrier_type', 255).nullable();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
    t.index('updated_at');
  });

  await knex.schema.createTable('inventories_warehouses', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.string('code', 255).nullable().index();
    t.integer('sort').nullable().index();
    t.string('reception_steps', 20).notNullable().defaultTo('one_step');
    t.string('delivery_steps', 20).notNullable().defaultTo('ship_only');
    foreignId(t, 'company_id', 'companies').notNullable();
    foreignId(t, 'partner_address_id', 'partners_partners', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
    softDeletes(t);
    t.unique(['company_id', 'name'], { indexName: 'inventories_warehouses_company_id_name_unique' });
    t.unique(['company_id', 'code'], { indexName: 'inventories_warehouses_company_id_code_unique' });
  });

  await knex.schema.createTable('inventories_locations', (t) => {
    t.increments('id');
    t.string('type', 20).notNullable().index();
    t.string('name', 255).notNullable().index();
    // parent's full name + "/" + name (view locations show their name only); may outgrow 255.
    t.text('full_name').nullable();
    // Ids from the root, "1/11/12/": a subtree is `parent_path LIKE '1/11/%'`.
    t.string('parent_path', 255).nullable().index();
    t.string('barcode', 255).nullable().unique('inventories_locations_barcode_unique');
    t.boolean('is_scrap').notNullable().defaultTo(false).index();
    t.boolean('is_replenish').notNullable().defaultTo(false).index();
    foreignId(t, 'parent_id', 'inventories_locations').nullable();
    foreignId(t, 'warehouse_id', 'inventories_warehouses', 'SET NULL').nullable();
    foreignId(t, 'company_id', 'companies').nullable();
    creator(t);
    timestamps(t);
    t.index('updated_at');
    softDeletes(t);
  });

  await knex.schema.createTable('inventories_operation_types', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.string('type', 20).notNullable().index();
    t.integer('sort').nullable().index();
    t.string('sequence_code', 255).notNullable();
    t.string('reservation_method', 20).notNullable().defaultTo('at_confirm');
    t.integer('reservation_days_before').notNullable().defaultTo(0);
    t.integer('reservation_days_before_priority').notNullable().defaultTo(0);
    t.string('product_label_format', 255).nullable();
    t.string('lot_label_format', 255).nullable();
    t.string('package_label_to_print', 255).nullable();
    t.string('barcode', 255).nullable();
    t.string('create_backorder', 20).notNullable().defaultTo('ask');
    t.string('move_type', 20).notNullable().defaultTo('direct');
    for (const flag of [
      'show_entire_packs',
      'use_create_lots',
      'use_existing_lots',
      'print_label',
      'show_operations',
      'auto_show_reception_report',
      'auto_print_delivery_slip',
      'auto_print_return_slip',
      'auto_print_product_labels',
      'auto_print_lot_labels',
      'auto_print_reception_report',
      'auto_print_reception_report_labels',
      'auto_print_packages',
      'auto_print_package_label',
    ]) {
      t.boolean(flag).notNullable().defaultTo(false);
    }
    foreignId(t, 'return_operation_type_id', 'inventories_operation_types', 'SET NULL').nullable();
    foreignId(t, 'source_location_id', 'inventories_locations').notNullable();
    foreignId(t, 'destination_location_id', 'inventories_locations').notNullable();
    foreignId(t, 'warehouse_id', 'inventories_warehouses').nullable();
    foreignId(t, 'company_id', 'companies').notNullable();
    creator(t);
    timestamps(t);
    t.index('updated_at');
    softDeletes(t);
  });

  await knex.schema.createTable('inventories_routes', (t) => {
    t.increments('id');
    t.integer('sort').nullable().index();
    t.string('name', 255).notNullable().index();
    for (const flag of ['product_selectable', 'product_category_selectable', 'warehouse_selectable', 'packaging_selectable']) {
      t.boolean(flag).notNullable().defaultTo(false).index();
    }
    foreignId(t, 'supplied_warehouse_id', 'inventories_warehouses', 'SET NULL').nullable();
    foreignId(t, 'supplier_warehouse_id', 'inventories_warehouses', 'SET NULL').nullable();
    foreignId(t, 'company_id', 'companies').nullable();
    creator(t);
    timestamps(t);
    t.index('updated_at');
    softDeletes(t);
  });

  await knex.schema.createTable('inventories_rules', (t) => {
    t.increments('id');
    t.integer('sort').nullable().index();
    t.string('name', 255).notNullable().index();
    t.integer('route_sort').notNullable().defaultTo(0).index();
    t.integer('delay').notNullable().defaultTo(0).index();
    t.string('group_propagation_option', 20).nullable();
    t.string('action', 20).notNullable().index();
    t.string('procure_method', 30).notNullable().defaultTo('make_to_stock');
    t.string('auto', 20).notNullable().defaultTo('manual');
    t.string('push_domain', 255).nullable();
    for (const flag of ['location_dest_from_rule', 'propagate_cancel', 'propagate_carrier']) t.boolean(flag).notNullable().defaultTo(false);
    foreignId(t, 'source_location_id', 'inventories_locations').nullable();
    foreignId(t, 'destination_location_id', 'inventories_locations').notNullable();
    foreignId(t, 'route_id', 'inventories_routes').notNullable();
    foreignId(t, 'operation_type_id', 'inventories_operation_types').nullable();
    foreignId(t, 'partner_address_id', 'partners_partners', 'SET NULL').nullable();
    foreignId(t, 'warehouse_id', 'inventories_warehouses', 'SET NULL').nullable();
    foreignId(t, 'propagate_warehouse_id', 'inventories_warehouses', 'SET NULL').nullable();
    foreignId(t, 'company_id', 'companies').notNullable();
    creator(t);
    timestamps(t);
    t.index('updated_at');
    softDeletes(t);
  });

  await knex.schema.createTable('inventories_route_warehouses', (t) => {
    foreignId(t, 'warehouse_id', 'inventories_warehouses', 'CASCADE').notNullable();
    foreignId(t, 'route_id', 'inventories_routes', 'CASCADE').notNullable();
    t.primary(['warehouse_id', 'route_id']);
  });

  await knex.schema.createTable('inventories_product_routes', (t) => {
    foreignId(t, 'product_id', 'products_products', 'CASCADE').notNullable();
    foreignId(t, 'route_id', 'inventories_routes', 'CASCADE').notNullable();
    t.primary(['product_id', 'route_id']);
  });

  await knex.schema.alterTable('inventories_warehouses', (t) => {
    for (const [column, table, onDelete] of WAREHOUSE_LINKS) foreignId(t, column, table, onDelete).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('inventories_warehouses', (t) => {
    for (const [column] of WAREHOUSE_LINKS) t.dropForeign([column]);
  });
  await knex.schema.alterTable('inventories_warehouses', (t) => {
    for (const [column] of WAREHOUSE_LINKS) {
      t.dropIndex([column]);
      t.dropColumn(column);
    }
  });
  for (const table of [
    'inventories_product_routes',
    'inventories_route_warehouses',
    'inventories_rules',
    'inventories_routes',
    'inventories_operation_types',
    'inventories_locations',
    'inventories_warehouses',
    'inventories_package_types',
    'inventories_tags',
  ]) {
    await knex.schema.dropTable(table);
  }
}
