import type { Knex } from 'knex';

/** Inserts the rows whose key is not stored yet, in order; returns how many were added. Idempotent. */
export async function insertMissing(knex: Knex, table: string, key: string, rows: Array<Record<string, unknown>>): Promise<number> {
  const existing = new Set((await knex(table).pluck(key)).map(String));
  const missing = rows.filter((row) => !existing.has(String(row[key])));
  // Batches keep each statement under SQLite's and MySQL's placeholder limits.
  for (let i = 0; i < missing.length; i += 100) await knex(table).insert(missing.slice(i, i + 100));
  return missing.length;
}
