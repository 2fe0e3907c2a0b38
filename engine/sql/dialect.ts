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
