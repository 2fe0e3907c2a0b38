// The database connection: embedded SQLite (better-sqlite3) or MySQL/MariaDB (mysql2), through knex.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import type { DatabaseConfig } from './config.ts';

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
    },
    pool: {
      min: 0,
      max: 10,
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
