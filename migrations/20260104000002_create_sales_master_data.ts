// The sales module's master data: tags, teams, UTM campaigns, sources and mediums, and price
// lists with their rules. Sales orders point at all of them.
import type { Knex } from 'knex';
import { creator, foreignId, softDeletes, timestamps } from './helpers.ts';

/** A foreign key with its index that refuses to delete a row still referenced (NO ACTION: see 20260104000001). */
function restrictedId(t: Knex.CreateTableBuilder, column: string, table: string) {
  return t.integer(column).unsigned().references('id').inTable(table).index();
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sales_tags', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().unique('sales_tags_name_unique');
    t.string('color', 7).nullable();
    creator(t);
    timestamps(t);
  });

  await knex.schema.createTable('sales_teams', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.integer('sort').nullable().index();
    t.string('color', 7).nullable();
    t.boolean('is_active').notNullable().defaultTo(true).index();
    t.decimal('invoiced_target', 15, 4).nullable().defaultTo(0);
    foreignId(t, 'user_id', 'users', 'SET NULL').nullable(); // the team leader
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
    softDeletes(t);
  });

  await knex.schema.createTable('utm_campaigns', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.string('title', 255).nullable();
    t.string('color', 7).nullable();
    t.boolean('is_active').notNullable().defaultTo(true).index();
    foreignId(t, 'user_id', 'users', 'SET NULL').nullable(); // the responsible
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
  });
  await knex.schema.createTable('utm_sources', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().unique('utm_sources_name_unique');
    creator(t);
    timestamps(t);
  });
  await knex.schema.createTable('utm_mediums', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().unique('utm_mediums_name_unique');
    t.boolean('is_active').notNullable().defaultTo(true).index();
    creator(t);
    timestamps(t);
  });

  await knex.schema.createTable('sales_price_lists', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    restrictedId(t, 'currency_id', 'currencies').notNullable();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    t.boolean('active').notNullable().defaultTo(true).index();
    t.integer('sort').nullable().index();
    creator(t);
    timestamps(t);
  });
  // A rule prices one product, one category (and its children) or, with neither, every product,
  // from a minimum quantity and between two dates. Rules go with their price list.
  await knex.schema.createTable('sales_price_list_rules', (t) => {
    t.increments('id');
    foreignId(t, 'price_list_id', 'sales_price_lists', 'CASCADE').notNullable();
    foreignId(t, 'product_id', 'products_products', 'CASCADE').nullable();
    foreignId(t, 'category_id', 'products_categories', 'CASCADE').nullable();
    t.decimal('min_quantity', 15, 4).notNullable().defaultTo(0);
    t.string('compute_price', 20).notNullable().defaultTo('fixed'); // fixed, percentage, formula
    t.decimal('fixed_price', 15, 4).nullable();
    t.decimal('percent_price', 15, 4).nullable();
    t.string('base', 20).notNullable().defaultTo('list_price'); // formula: list_price or standard_price
    t.decimal('price_discount', 15, 4).nullable();
    t.decimal('price_surcharge', 15, 4).nullable();
    t.datetime('date_start', { precision: 6 }).nullable().index();
    t.datetime('date_end', { precision: 6 }).nullable().index();
    t.integer('sort').nullable().index();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['sales_price_list_rules', 'sales_price_lists', 'utm_mediums', 'utm_sources', 'utm_campaigns', 'sales_teams', 'sales_tags']) {
    await knex.schema.dropTable(table);
  }
}
