// Idempotency-Key: a POST sent again with the same key by the same user within 24 hours gets the
// stored answer instead of writing twice (src/http/idempotency.ts).
import type { Knex } from 'knex';
import { foreignId } from './helpers.ts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.increments('id');
    foreignId(t, 'user_id', 'users', 'CASCADE').notNullable();
    t.string('key', 255).notNullable();
    // SHA-256 of the method, path and body: the same key with another request is refused.
    t.string('request_hash', 64).notNullable();
    // Null while the first request runs.
    t.integer('status_code').nullable();
    t.text('response_body', 'mediumtext').nullable();
    t.datetime('created_at', { precision: 6 }).notNullable();
    t.datetime('expires_at', { precision: 6 }).notNullable().index();
    t.unique(['user_id', 'key'], { indexName: 'idempotency_keys_user_id_key_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('idempotency_keys');
}
