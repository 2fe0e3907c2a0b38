// What differs between the two databases the engine speaks to, SQLite (better-sqlite3, embedded,
// answering synchronously) and MySQL/MariaDB (mysql2, a server a round trip away), and what the
// connected server can do beyond the SQL both share. The one place that asks knex which client a
// connection uses: every other file asks these functions (test/engine/sql-boundaries.test.ts).
// When to write SQL how: ./README.md.
import type { Knex } from 'knex';

/** The two dialects the engine writes SQL for. */
export type Dialect = 'sqlite' | 'mysql';

/** Which dialect a connection (or a transaction of it) speaks. */
export function dialectOf(knex: Knex | Knex.Transaction): Dialect {
  return knex.client.config.client === 'better-sqlite3' ? 'sqlite' : 'mysql';
}

/**
 * Whether each statement is a round trip to a database server (MySQL/MariaDB): the event loop runs
 * other work while it waits. SQLite answers synchronously, in process.
 */
export function roundTrips(knex: Knex | Knex.Transaction): boolean {
  return dialectOf(knex) === 'mysql';
}

/** `INSERT ... RETURNING`: SQLite since 3.35, MariaDB since 10.5; MySQL has none. */
export async function supportsInsertReturning(knex: Knex): Promise<boolean> {
  if (dialectOf(knex) === 'sqlite') {
    const [row] = await knex.raw('SELECT sqlite_version() AS version');
    return atLeast(String(row.version), [3, 35]);
  }
  const version = await serverVersion(knex);
  return /mariadb/i.test(version) && atLeast(version, [10, 5]);
}

/** Whether a MySQL-compatible server is MariaDB (`SET STATEMENT`, `RETURNING`) rather than MySQL. */
export async function isMariaDb(knex: Knex): Promise<boolean> {
  if (dialectOf(knex) === 'sqlite') return false;
  return /mariadb/i.test(await serverVersion(knex));
}

const versions = new WeakMap<Knex, Promise<string>>();

/** The MySQL-compatible server's VERSION(), asked once per connection pool (boot asks it twice). */
function serverVersion(knex: Knex): Promise<string> {
  let version = versions.get(knex);
  if (!version) {
    version = knex.raw('SELECT VERSION() AS version').then(
      ([[row]]: any) => String(row.version),
      (error: unknown) => {
        versions.delete(knex); // a server not up yet is asked again next time
        throw error;
      },
    );
    versions.set(knex, version);
  }
  return version;
}

function atLeast(version: string, [major, minor]: [number, number]): boolean {
  const [have = 0, haveMinor = 0] = version.split(/[.-]/).map(Number);
  return have > major || (have === major && haveMinor >= minor);
}

/**
 * The rows of a `knex.raw()` SELECT: mysql2 answers `[rows, fields]`, better-sqlite3 (through
 * knex) the rows themselves.
 */
export function rowsOf<T = Record<string, any>>(knex: Knex | Knex.Transaction, result: any): T[] {
  return (dialectOf(knex) === 'mysql' ? result[0] : result) as T[];
}

/** The new row's id of a `knex.raw()` INSERT: mysql2's `[ResultSetHeader, fields]`; better-sqlite3's run info. */
export function insertedIdOf(knex: Knex | Knex.Transaction, result: any): number {
  return Number(dialectOf(knex) === 'mysql' ? result[0].insertId : result.lastInsertRowid);
}

/**
 * The rows a query selects, locked for the rest of the transaction on MySQL/MariaDB: a plain read
 * there shows the transaction's snapshot, which can miss a row another write added or changed since.
 * SQLite has one writer at a time, and no row locks.
 */
export function lockedForUpdate<T extends Knex.QueryBuilder>(knex: Knex | Knex.Transaction, query: T): T {
  return dialectOf(knex) === 'mysql' ? (query.forUpdate() as T) : query;
}

/** lockedForUpdate() for a SELECT written as text: what ends it (nothing on SQLite). */
export function forUpdateSuffix(knex: Knex | Knex.Transaction): string {
  return dialectOf(knex) === 'mysql' ? ' FOR UPDATE' : '';
}

/**
 * What ends a SELECT that must see the newest committed rows and keep them from changing until the
 * transaction ends, without excluding other readers: a shared lock on MySQL/MariaDB (nothing on
 * SQLite, whose one writer sees everything committed).
 */
export function sharedLockSuffix(knex: Knex | Knex.Transaction): string {
  return dialectOf(knex) === 'mysql' ? ' LOCK IN SHARE MODE' : '';
}

/** Two strings joined, as SQL text: `CONCAT(a, b)` on MySQL/MariaDB, `(a || b)` on SQLite. */
export function concat(knex: Knex | Knex.Transaction, a: string, b: string): string {
  return dialectOf(knex) === 'mysql' ? `CONCAT(${a}, ${b})` : `(${a} || ${b})`;
}

/** `a` and `b` differ, null-safe (null and a value differ, two nulls do not), as SQL text. */
export function nullSafeDiffers(knex: Knex | Knex.Transaction, a: string, b: string): string {
  return dialectOf(knex) === 'mysql' ? `NOT (${a} <=> ${b})` : `${a} IS NOT ${b}`;
}

/**
 * In an upsert's update (knex's `.onConflict().merge()`): the row's `column` plus the value the
 * statement proposed for it (`VALUES()` on MySQL/MariaDB, `excluded` on SQLite).
 */
export function plusProposed(knex: Knex | Knex.Transaction, table: string, column: string): Knex.Raw {
  return knex.raw(dialectOf(knex) === 'mysql' ? '?? + VALUES(??)' : '?? + excluded.??', [`${table}.${column}`, column]);
}

/** What ends a CREATE TABLE written as text: InnoDB on MySQL/MariaDB (row locks, transactions); nothing on SQLite. */
export function tableOptions(knex: Knex): string {
  return dialectOf(knex) === 'mysql' ? ' ENGINE=InnoDB' : '';
}

/** The database's clock in ms since the epoch. */
export async function databaseNow(knex: Knex): Promise<number> {
  if (dialectOf(knex) === 'sqlite') {
    const [row] = await knex.raw("SELECT CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) AS now");
    return Number(row.now);
  }
  const [[row]] = await knex.raw('SELECT ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000) AS now');
  return Number(row.now);
}
