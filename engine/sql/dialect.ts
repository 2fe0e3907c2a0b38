// What the connected database server can do beyond the SQL both dialects share, asked once at boot.
import type { Knex } from 'knex';

/** `INSERT ... RETURNING`: SQLite since 3.35, MariaDB since 10.5; MySQL has none. */
export async function supportsInsertReturning(knex: Knex): Promise<boolean> {
  if (knex.client.config.client === 'better-sqlite3') {
    const [row] = await knex.raw('SELECT sqlite_version() AS version');
    return atLeast(String(row.version), [3, 35]);
  }
  const [[row]] = await knex.raw('SELECT VERSION() AS version');
  const version = String(row.version);
  return /mariadb/i.test(version) && atLeast(version, [10, 5]);
}

function atLeast(version: string, [major, minor]: [number, number]): boolean {
  const [have = 0, haveMinor = 0] = version.split(/[.-]/).map(Number);
  return have > major || (have === major && haveMinor >= minor);
}

/** The two dialects the engine writes SQL for. */
export type Dialect = 'sqlite' | 'mysql';

/** Which dialect a connection (or a transaction of it) speaks. */
export function dialectOf(knex: Knex | Knex.Transaction): Dialect {
  return knex.client.config.client === 'better-sqlite3' ? 'sqlite' : 'mysql';
}

/**
 * The rows a query selects, locked for the rest of the transaction on MySQL/MariaDB: a plain read
 * there shows the transaction's snapshot, which can miss a row another write added or changed since.
 * SQLite has one writer at a time, and no row locks.
 */
export function lockedForUpdate<T extends Knex.QueryBuilder>(knex: Knex | Knex.Transaction, query: T): T {
  return dialectOf(knex) === 'mysql' ? (query.forUpdate() as T) : query;
}
