// The stock ledger: on-hand and reserved quantity per product and location, changed only by done
// moves (validated operations and inventory adjustments). Moves gain their reservation, their
// origin when they return goods, and their sales order line; operations their return and order.
import type { Knex } from 'knex';
import { creator, foreignId, timestamps } from './helpers.ts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('inventories_product_quantities', (t) => {
    t.increments('id');
    foreignId(t, 'product_id', 'products_products', 'CASCADE').notNullable();
    foreignId(t, 'location_id', 'inventories_locations', 'CASCADE').notNullable();
    // In the product's unit.
    t.decimal('quantity', 15, 4).notNullable().defaultTo(0);
    t.decimal('reserved_quantity', 15, 4).notNullable().defaultTo(0);
    // An inventory count waiting to be applied (null: none).
    t.decimal('counted_quantity', 15, 4).nullable();
    foreignId(t, 'warehouse_id', 'inventories_warehouses', 'SET NULL').nullable();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    foreignId(t, 'user_id', 'users', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
    // Named after product_id so that a duplicate reads as "The product id has already been taken."
    t.unique(['product_id', 'location_id'], { indexName: 'inventories_product_quantities_product_id_unique' });
  });

  await knex.schema.alterTable('inventories_moves', (t) => {
    t.decimal('reserved_quantity', 15, 4).notNullable().defaultTo(0);
    t.boolean('is_inventory').notNullable().defaultTo(false);
    foreignId(t, 'origin_returned_move_id', 'inventories_moves', 'SET NULL').nullable();
    foreignId(t, 'sale_order_line_id', 'sales_order_lines', 'SET NULL').nullable();
  });
  // Inventory adjustments are moves of no operation.
  await knex.schema.alterTable('inventories_moves', (t) => {
    t.integer('operation_id').unsigned().nullable().alter();
  });

  await knex.schema.alterTable('inventories_operations', (t) => {
    foreignId(t, 'return_id', 'inventories_operations', 'SET NULL').nullable();
    foreignId(t, 'sale_order_id', 'sales_orders', 'SET NULL').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('inventories_operations', (t) => {
    t.dropForeign(['return_id']);
    t.dropForeign(['sale_order_id']);
    t.dropColumn('return_id');
    t.dropColumn('sale_order_id');
  });
  await knex('inventories_moves').whereNull('operation_id').delete();
  await knex.schema.alterTable('inventories_moves', (t) => {
    t.dropForeign(['origin_returned_move_id']);
    t.dropForeign(['sale_order_line_id']);
    t.dropColumn('reserved_quantity');
    t.dropColumn('is_inventory');
    t.dropColumn('origin_returned_move_id');
    t.dropColumn('sale_order_line_id');
  });
  await knex.schema.dropTable('inventories_product_quantities');
}
