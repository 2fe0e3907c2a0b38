// The database connection: embedded SQLite (better-sqlite3) or MySQL/MariaDB (mysql2), through knex.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { SQLITE_PAGE_CACHE_KIB } from '../engine/index.ts';
import { DEFAULT_DB_POOL_MAX, type DatabaseConfig } from './config.ts';

export function createKnex(database: DatabaseConfig): Knex {
  if (database.client === 'sqlite') {
    if (database.filename !== ':memory:') mkdirSync(dirname(database.filename), { recursive: true });
    return knexFactory({
      client: 'better-sqlite3',
      connection: { filename: database.filename },
      useNullAsDefault: true,
      pool: {
        afterCreate(connection: { pragma(sql: string): unknown }, done: (error: Error | null, connection: unknown) => void) {
          connection.pragma('foreign_keys = ON');
          connection.pragma('busy_timeout = 5000');
          connection.pragma(`cache_size = -${SQLITE_PAGE_CACHE_KIB}`);
          if (database.filename !== ':memory:') {
            connection.pragma('journal_mode = WAL');
            // In WAL mode NORMAL never corrupts the database; a power cut may lose the last commits,
            // not a crash of the process. FULL would wait for a disk flush on every write.
            connection.pragma('synchronous = NORMAL');
          }
          done(null, connection);
        },
      },
    });
  }
  return knexFactory({
    client: 'mysql2',
    connection: {
      host: database.host,
      port: database.port,
      user: database.user,
      password: database.password,
      database: database.database,
      charset: 'utf8mb4',
      // Timestamps are stored and read as UTC strings, the same as on SQLite.
      timezone: 'Z',
      dateStrings: true,
      supportBigNumbers: true,
      // A server that does not answer fails a connection attempt in 2 s, not the OS's minutes.
      connectTimeout: 2000,
      // Server-side prepared statements kept per connection (the server allows 16,382 in all).
      // Keep it above what engine/sql/statements.ts holds per connection (128).
      maxPreparedStatements: 256,
    },
    // A request waits at most 3 s for a connection: with the database down it gets a 503, not a hang.
    acquireConnectionTimeout: 3000,
    pool: {
      min: 0,
      max: database.poolMax ?? DEFAULT_DB_POOL_MAX,
      acquireTimeoutMillis: 3000,
      createTimeoutMillis: 2500,
      afterCreate(connection: { query(sql: string, callback: (error: Error | null) => void): void }, done: (error: Error | null, connection: unknown) => void) {
        connection.query("SET time_zone = '+00:00'", (error) => done(error, connection));
      },
    },
  });
}

export async function databaseAnswers(knex: Knex): Promise<boolean> {
  try {
    await knex.raw('select 1');
    return true;
  } catch {
    return false;
  }
}
