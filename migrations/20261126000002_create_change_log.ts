// The change feed (GET /changes): every write appends its changes to change_log in the write's own
// transaction; a sequencer then gives committed changes their feed position (`seq`), one batch at a
// time through the change_feed row, so that a change committed late gets a later position instead
// of one a consumer has already passed (engine/changes/).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('change_log', (t) => {
    t.bigIncrements('id');
    // Null until the sequencer reaches it.
    t.bigInteger('seq').nullable().unique('change_log_seq_unique');
    t.string('resource', 100).notNullable();
    t.bigInteger('record_id').notNullable();
    t.string('kind', 64).notNullable();
    // The record as the API shows it after the change (its last state for a deletion), as JSON.
    t.text('record', 'mediumtext').notNullable();
    // An update's changed field names, as a JSON list.
    t.text('changed').nullable();
    // The value of the resource's company-scope column, so that the feed applies the list's scope.
    t.integer('row_scope').nullable();
    t.integer('user_id').nullable();
    t.string('request_id', 128).nullable();
    t.datetime('created_at', { precision: 6 }).notNullable().index();
  });
  await knex.schema.createTable('change_feed', (t) => {
    t.integer('id').primary();
    t.bigInteger('last_seq').notNullable();
    // Changes up to this position were deleted by retention: a cursor below it answers 410.
    t.bigInteger('purged_through').notNullable();
  });
  await knex('change_feed').insert({ id: 1, last_seq: 0, purged_through: 0 });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('change_feed');
  await knex.schema.dropTable('change_log');
}
