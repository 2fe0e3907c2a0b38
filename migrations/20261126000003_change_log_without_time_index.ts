// Every write inserts into change_log, and each index of it is written with every change: the index
// on created_at cost about a sixth of the database's throughput of creates (SQLite, measured). Only
// retention needs the time, and it finds its boundary by a search over the positions instead
// (engine/changes/retention.ts).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('change_log', (t) => {
    t.dropIndex(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('change_log', (t) => {
    t.index(['created_at']);
  });
}
