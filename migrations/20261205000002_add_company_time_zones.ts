// A company's time zone (issue 51, part 3): the business dates that default to "today" (a payment's
// date, an invoice's from its order, a reversal's) are the company's local date, not the UTC one.
// Every existing company keeps UTC, what its dates have been so far.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('companies', (t) => {
    t.string('timezone', 64).notNullable().defaultTo('UTC');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('companies', (t) => {
    t.dropColumn('timezone');
  });
}
