// Column conventions shared by the migrations.
import type { Knex } from 'knex';

/**
 * created_at/updated_at as UTC DATETIME(6), written by the engine. created_at is indexed for
 * sorting a top-level list; a nested resource's rows are read one parent at a time (`indexed: false`).
 */
export function timestamps(t: Knex.CreateTableBuilder, { indexed = true } = {}): void {
  const createdAt = t.datetime('created_at', { precision: 6 }).nullable();
  if (indexed) createdAt.index();
  t.datetime('updated_at', { precision: 6 }).nullable();
}

export function softDeletes(t: Knex.CreateTableBuilder, { indexed = true } = {}): void {
  const deletedAt = t.datetime('deleted_at', { precision: 6 }).nullable();
  if (indexed) deletedAt.index();
}

/** creator_id → users.id; kept when the user goes (set to null). */
export function creator(t: Knex.CreateTableBuilder): void {
  t.integer('creator_id').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL').index();
}

/** A foreign key with its index (`indexed: false`: an index of several columns that starts with it serves it). */
export function foreignId(t: Knex.CreateTableBuilder, column: string, table: string, onDelete: 'RESTRICT' | 'CASCADE' | 'SET NULL' = 'RESTRICT', { indexed = true } = {}) {
  const key = t.integer(column).unsigned().references('id').inTable(table).onDelete(onDelete);
  return indexed ? key.index() : key;
}
