import type { Knex } from 'knex';
import { creator, foreignId, timestamps } from './helpers.ts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('currencies', (t) => {
    t.increments('id');
    t.string('name', 3).notNullable().unique('currencies_name_unique');
    t.string('symbol', 20).nullable();
    t.string('iso_numeric', 3).nullable();
    t.integer('decimal_places').notNullable().defaultTo(2);
    t.string('full_name', 255).notNullable().index();
    t.decimal('rounding', 15, 6).notNullable().defaultTo(0.01);
    t.boolean('active').notNullable().defaultTo(false).index();
    timestamps(t);
  });
  await knex.schema.createTable('countries', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.string('code', 2).notNullable().unique('countries_code_unique');
    t.string('phone_code', 10).nullable();
    t.boolean('state_required').notNullable().defaultTo(false);
    t.boolean('zip_required').notNullable().defaultTo(false);
    foreignId(t, 'currency_id', 'currencies', 'SET NULL').nullable();
    timestamps(t);
  });
  await knex.schema.createTable('states', (t) => {
    t.increments('id');
    foreignId(t, 'country_id', 'countries', 'CASCADE').notNullable();
    t.string('name', 255).notNullable().index();
    t.string('code', 10).notNullable().index();
    t.unique(['country_id', 'code'], { indexName: 'states_country_id_code_unique' });
    timestamps(t);
  });
  await knex.schema.createTable('companies', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().unique('companies_name_unique');
    t.string('email', 255).nullable();
    t.string('tax_id', 255).nullable();
    t.string('company_registry', 255).nullable();
    foreignId(t, 'currency_id', 'currencies').notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    creator(t);
    timestamps(t);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['companies', 'states', 'countries', 'currencies']) await knex.schema.dropTable(table);
}
