// A second counter beside the access version: bumped when a token is revoked (logout, an API
// token deleted). Each process keeps the tokens it has checked and, on every request, reads
// only the two counters; a token is checked in full again when either has moved. Revocations
// move only this one, so a logout does not empty every process's permission cache.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('access_state', (t) => {
    t.integer('token_version').notNullable().defaultTo(1);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('access_state', (t) => {
    t.dropColumn('token_version');
  });
}
