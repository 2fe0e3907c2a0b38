// Inventory extras (reference-projects-extras §4): storage categories, packages, lots and scraps,
// and the stock ledger keyed by lot and package too.
//
// Quants (inventories_product_quantities) and moves gain a nullable lot_id and package_id. A quant
// is one row per (product, location, lot, package), "no lot" and "no package" being one value
// each. A unique index cannot say that with the nullable columns themselves (NULLs never collide,
// on SQLite or MariaDB alike), so the ledger keeps two non-null copies beside them, lot_key and
// package_key (the id, or 0 for none), and the unique index (the ledger's upsert target) is on
// (product_id, location_id, lot_key, package_key). Rows from before keep 0 and 0: nothing changes
// for stock without lots.
//
// Differences from the original's tables, on purpose: a scrap's closed_at is a datetime (the
// original's is a date, so its time is lost); lots and packages still referenced by quants or
// moves refuse the delete (409, see restrictedId) rather than failing with a server error.
import type { Knex } from 'knex';
import { creator, foreignId, timestamps } from './helpers.ts';

/**
 * A foreign key with its index that refuses to delete a row still referenced. Written without
 * ON DELETE (NO ACTION, which MySQL treats as RESTRICT): SQLite reports NO ACTION as
 * SQLITE_CONSTRAINT_FOREIGNKEY, which the API answers with 409 (see 20261127000003).
 */
function restrictedId(t: Knex.CreateTableBuilder | Knex.AlterTableBuilder, column: string, table: string) {
  return t.integer(column).unsigned().references('id').inTable(table).index();
}

const QUANTS = 'inventories_product_quantities';
// Named after product_id so that a duplicate reads as "The product id has already been taken."
const QUANT_KEY = 'inventories_product_quantities_product_id_unique';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('inventories_storage_categories', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable();
    t.integer('sort').nullable().index();
    t.string('allow_new_products', 20).notNullable();
    t.decimal('max_weight', 12, 4).notNullable().defaultTo(0);
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
  });
  await knex.schema.alterTable('inventories_locations', (t) => {
    foreignId(t, 'storage_category_id', 'inventories_storage_categories', 'SET NULL').nullable();
  });

  await knex.schema.createTable('inventories_packages', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable();
    t.string('package_use', 20).notNullable().defaultTo('disposable');
    t.date('pack_date').nullable();
    foreignId(t, 'package_type_id', 'inventories_package_types', 'SET NULL').nullable();
    // Kept by the ledger: where its first positive quant is (null when empty).
    foreignId(t, 'location_id', 'inventories_locations', 'SET NULL').nullable();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
  });

  await knex.schema.createTable('inventories_lots', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.text('description').nullable();
    t.string('reference', 255).nullable();
    t.json('properties').nullable();
    t.boolean('expiry_reminded').notNullable().defaultTo(false);
    for (const column of ['expiration_date', 'use_date', 'removal_date', 'alert_date']) t.datetime(column, { precision: 6 }).nullable();
    restrictedId(t, 'product_id', 'products_products').notNullable();
    foreignId(t, 'uom_id', 'unit_of_measures', 'SET NULL').nullable();
    // Kept by the ledger: where its first positive quant is (null when none).
    foreignId(t, 'location_id', 'inventories_locations', 'SET NULL').nullable();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
  });

  await knex.schema.createTable('inventories_scraps', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.string('origin', 255).nullable();
    t.string('state', 20).notNullable().defaultTo('draft').index();
    t.decimal('qty', 15, 4).notNullable().defaultTo(0);
    t.boolean('should_replenish').notNullable().defaultTo(false);
    t.datetime('closed_at', { precision: 6 }).nullable();
    restrictedId(t, 'product_id', 'products_products').notNullable();
    restrictedId(t, 'uom_id', 'unit_of_measures').notNullable();
    foreignId(t, 'lot_id', 'inventories_lots', 'SET NULL').nullable();
    foreignId(t, 'package_id', 'inventories_packages', 'SET NULL').nullable();
    foreignId(t, 'partner_id', 'partners_partners', 'SET NULL').nullable();
    foreignId(t, 'operation_id', 'inventories_operations', 'SET NULL').nullable();
    restrictedId(t, 'source_location_id', 'inventories_locations').notNullable();
    restrictedId(t, 'destination_location_id', 'inventories_locations').notNullable();
    restrictedId(t, 'company_id', 'companies').notNullable();
    creator(t);
    timestamps(t);
  });
  await knex.schema.createTable('inventories_scrap_tags', (t) => {
    foreignId(t, 'scrap_id', 'inventories_scraps', 'CASCADE').notNullable();
    foreignId(t, 'tag_id', 'inventories_tags', 'CASCADE').notNullable();
    t.primary(['scrap_id', 'tag_id']);
  });

  await knex.schema.alterTable(QUANTS, (t) => {
    restrictedId(t, 'lot_id', 'inventories_lots').nullable();
    restrictedId(t, 'package_id', 'inventories_packages').nullable();
    t.integer('lot_key').unsigned().notNullable().defaultTo(0);
    t.integer('package_key').unsigned().notNullable().defaultTo(0);
  });
  await knex.schema.alterTable(QUANTS, (t) => {
    t.dropUnique(['product_id', 'location_id'], QUANT_KEY);
  });
  await knex.schema.alterTable(QUANTS, (t) => {
    t.unique(['product_id', 'location_id', 'lot_key', 'package_key'], { indexName: QUANT_KEY });
  });

  await knex.schema.alterTable('inventories_moves', (t) => {
    restrictedId(t, 'lot_id', 'inventories_lots').nullable();
    restrictedId(t, 'package_id', 'inventories_packages').nullable();
    restrictedId(t, 'scrap_id', 'inventories_scraps').nullable();
    t.boolean('is_scraped').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex('inventories_moves').whereNotNull('scrap_id').delete();
  await knex.schema.alterTable('inventories_moves', (t) => {
    for (const column of ['lot_id', 'package_id', 'scrap_id']) t.dropForeign([column]);
    for (const column of ['lot_id', 'package_id', 'scrap_id', 'is_scraped']) t.dropColumn(column);
  });
  // Stock kept per lot or package has no row of its own without those columns: it goes.
  await knex(QUANTS).where('lot_key', '<>', 0).orWhere('package_key', '<>', 0).delete();
  await knex.schema.alterTable(QUANTS, (t) => {
    t.dropUnique(['product_id', 'location_id', 'lot_key', 'package_key'], QUANT_KEY);
  });
  await knex.schema.alterTable(QUANTS, (t) => {
    t.dropForeign(['lot_id']);
    t.dropForeign(['package_id']);
    for (const column of ['lot_id', 'package_id', 'lot_key', 'package_key']) t.dropColumn(column);
    t.unique(['product_id', 'location_id'], { indexName: QUANT_KEY });
  });
  await knex.schema.dropTable('inventories_scrap_tags');
  await knex.schema.dropTable('inventories_scraps');
  await knex.schema.dropTable('inventories_lots');
  await knex.schema.dropTable('inventories_packages');
  await knex.schema.alterTable('inventories_locations', (t) => {
    t.dropForeign(['storage_category_id']);
    t.dropColumn('storage_category_id');
  });
  await knex.schema.dropTable('inventories_storage_categories');
}
