import type { Knex } from 'knex';
import { creator, foreignId, softDeletes, timestamps } from './helpers.ts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('unit_of_measure_categories', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    creator(t);
    timestamps(t);
  });
  await knex.schema.createTable('unit_of_measures', (t) => {
    t.increments('id');
    t.string('type', 20).notNullable().index();
    t.string('name', 255).notNullable().index();
    t.double('factor').notNullable().defaultTo(1).index();
    t.decimal('rounding', 15, 4).notNullable().defaultTo(0.01);
    // A category with units cannot be deleted (the API answers 409 before the database refuses).
    foreignId(t, 'category_id', 'unit_of_measure_categories').notNullable();
    creator(t);
    timestamps(t);
    softDeletes(t);
  });
  await knex.schema.createTable('currency_rates', (t) => {
    t.increments('id');
    t.date('name').notNullable().index();
    t.decimal('rate', 15, 6).notNullable().defaultTo(1).index();
    foreignId(t, 'currency_id', 'currencies').notNullable();
    foreignId(t, 'company_id', 'companies').nullable();
    creator(t);
    timestamps(t);
    t.index(['currency_id', 'name']);
  });
  await knex.schema.createTable('banks', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.string('code', 50).nullable().index();
    t.string('email', 255).nullable();
    t.string('phone', 50).nullable();
    t.string('street1', 255).nullable();
    t.string('street2', 255).nullable();
    t.string('city', 100).nullable().index();
    t.string('zip', 20).nullable();
    foreignId(t, 'state_id', 'states', 'SET NULL').nullable();
    foreignId(t, 'country_id', 'countries', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
    softDeletes(t);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['banks', 'currency_rates', 'unit_of_measures', 'unit_of_measure_categories']) await knex.schema.dropTable(table);
}
