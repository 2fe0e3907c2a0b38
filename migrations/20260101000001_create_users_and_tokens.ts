import type { Knex } from 'knex';
import { timestamps } from './helpers.ts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable();
    t.string('email', 255).notNullable().unique('users_email_unique');
    // bcrypt hash, compatible with the original installation's users table ($2y$/$2b$).
    t.string('password', 255).notNullable();
    timestamps(t);
    t.datetime('deleted_at', { precision: 6 }).nullable().index();
    t.index(['name']);
  });
  // Logout writes the token's id here; every process sharing the database then refuses it.
  await knex.schema.createTable('revoked_tokens', (t) => {
    t.string('jti', 64).primary();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE').index();
    t.datetime('expires_at', { precision: 6 }).notNullable().index();
    t.datetime('revoked_at', { precision: 6 }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('revoked_tokens');
  await knex.schema.dropTable('users');
}
