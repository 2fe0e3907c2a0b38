// Stock operations (receipts, deliveries, internal transfers, dropships: one table, told apart by
// their operation type's type) and their moves.
import type { Knex } from 'knex';
import { creator, foreignId, timestamps } from './helpers.ts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('inventories_operations', (t) => {
    t.increments('id');
    t.string('name', 64).notNullable().index();
    t.string('origin', 255).nullable();
    t.string('move_type', 20).notNullable().defaultTo('direct').index();
    t.string('state', 20).notNullable().defaultTo('draft').index();
    t.boolean('is_favorite').notNullable().defaultTo(false);
    t.boolean('has_deadline_issue').notNullable().defaultTo(false);
    t.boolean('is_printed').notNullable().defaultTo(false);
    t.boolean('is_locked').notNullable().defaultTo(false);
    t.text('description').nullable();
    t.datetime('deadline', { precision: 6 }).nullable().index();
    t.datetime('scheduled_at', { precision: 6 }).nullable().index();
    t.datetime('closed_at', { precision: 6 }).nullable();
    foreignId(t, 'partner_id', 'partners_partners', 'SET NULL').nullable();
    foreignId(t, 'operation_type_id', 'inventories_operation_types').notNullable();
    foreignId(t, 'source_location_id', 'inventories_locations').notNullable();
    foreignId(t, 'destination_location_id', 'inventories_locations').notNullable();
    foreignId(t, 'user_id', 'users', 'SET NULL').nullable();
    foreignId(t, 'company_id', 'companies').nullable();
    creator(t);
    timestamps(t);
    t.index(['updated_at']);
  });
  await knex.schema.createTable('inventories_moves', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable();
    t.string('state', 20).notNullable().defaultTo('draft').index();
    t.string('origin', 255).nullable();
    t.string('procure_method', 20).notNullable().defaultTo('make_to_stock');
    t.string('reference', 64).nullable().index();
    t.string('description_picking', 255).nullable();
    t.decimal('product_qty', 15, 4).notNullable().defaultTo(0);
    t.decimal('product_uom_qty', 15, 4).notNullable().defaultTo(0);
    t.decimal('quantity', 15, 4).nullable();
    t.boolean('is_picked').notNullable().defaultTo(false);
    t.datetime('scheduled_at', { precision: 6 }).nullable();
    t.datetime('deadline', { precision: 6 }).nullable();
    foreignId(t, 'operation_id', 'inventories_operations', 'CASCADE').notNullable();
    foreignId(t, 'product_id', 'products_products').notNullable();
    foreignId(t, 'uom_id', 'unit_of_measures').notNullable();
    foreignId(t, 'source_location_id', 'inventories_locations').notNullable();
    foreignId(t, 'destination_location_id', 'inventories_locations').notNullable();
    foreignId(t, 'final_location_id', 'inventories_locations', 'SET NULL').nullable();
    foreignId(t, 'operation_type_id', 'inventories_operation_types').nullable();
    foreignId(t, 'partner_id', 'partners_partners', 'SET NULL').nullable();
    foreignId(t, 'warehouse_id', 'inventories_warehouses', 'SET NULL').nullable();
    foreignId(t, 'product_packaging_id', 'products_packagings', 'SET NULL').nullable();
    foreignId(t, 'company_id', 'companies').nullable();
    creator(t);
    timestamps(t);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('inventories_moves');
  await knex.schema.dropTable('inventories_operations');
}
