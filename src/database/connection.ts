// The database connection: embedded SQLite (better-sqlite3) or MySQL/MariaDB (mysql2), through knex.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { discardOnNodeError, isDiscarded, SQLITE_PAGE_CACHE_KIB } from '../../engine/index.ts';
import { DEFAULT_DB_POOL_MAX, type DatabaseConfig } from '../app/config.ts';

/** The statements a SQLite connection keeps prepared for knex (its texts vary little: one per query shape). */
const KNEX_STATEMENTS_PER_CONNECTION = 500;

export function createKnex(database: DatabaseConfig): Knex {
  if (database.client === 'sqlite') {
    if (database.filename !== ':memory:') mkdirSync(dirname(database.filename), { recursive: true });
    return knexFactory({
      client: 'better-sqlite3',
      connection: { filename: database.filename },
      useNullAsDefault: true,
      pool: {
        afterCreate(connection: { pragma(sql: string): unknown; prepare(sql: string): unknown }, done: (error: Error | null, connection: unknown) => void) {
          // knex begins its transactions with a plain BEGIN, which reads on a snapshot and fails
          // without waiting (SQLITE_BUSY_SNAPSHOT) at its first write if another process committed
          // since. Its transactions here are units of writing: BEGIN IMMEDIATE takes the write lock
          // first, waiting for another process up to the busy timeout like any write.
          //
          // knex also prepares every statement it runs anew, and SQLite's parsing and planning is a
          // good part of a small statement's time: the connection keeps the statements it prepared,
          // by text, and gives one again unless it is still being iterated.
          const prepare = connection.prepare.bind(connection);
          const prepared = new Map<string, { busy: boolean }>();
          connection.prepare = (text: string) => {
            const sql = text === 'BEGIN;' ? 'BEGIN IMMEDIATE;' : text;
            let statement = prepared.get(sql);
            if (statement && !statement.busy) return statement;
            statement = prepare(sql) as { busy: boolean };
            if (prepared.size >= KNEX_STATEMENTS_PER_CONNECTION) prepared.clear();
            prepared.set(sql, statement);
            return statement;
          };
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
      afterCreate(connection: MysqlConnection, done: (error: Error | null, connection: unknown) => void) {
        prepareMysqlSession(connection, database.causalReads !== false).then(
          () => done(null, connection),
          (error: Error) => done(error, connection),
        );
      },
      // A connection whose node said it cannot serve (src/database... isNodeUnavailable) is not reused.
      validate: (connection: object) => !isDiscarded(connection),
    },
  });
}

interface MysqlConnection {
  query(sql: string | object, values: unknown, callback?: (error: Error | null, rows?: unknown, fields?: unknown) => void): unknown;
}

/**
 * A new MySQL/MariaDB connection: UTC, and on a Galera node (wsrep_on) causal reads: every SELECT
 * and BEGIN waits until the node has applied what the cluster committed before it started, so a
 * client behind a load balancer reads its own writes through any node, and a logout or a removed
 * permission is seen by every node on the next request. Its queries that fail because the node
 * cannot serve mark the connection to be dropped.
 */
async function prepareMysqlSession(connection: MysqlConnection, causalReads: boolean): Promise<void> {
  const query = (sql: string) => new Promise<any>((resolve, reject) => connection.query(sql, undefined, (error, rows) => (error ? reject(error) : resolve(rows))));
  await query("SET time_zone = '+00:00'");
  // MySQL has no wsrep variables: then this is not a Galera node.
  const [row] = await query('SELECT @@wsrep_on AS wsrep_on').catch(() => [{ wsrep_on: 0 }]);
  if (causalReads && Number(row?.wsrep_on) === 1) await query('SET SESSION wsrep_sync_wait = 1');
  const send = connection.query;
  connection.query = function (this: MysqlConnection, sql, values, callback) {
    if (typeof callback !== 'function') return send.call(this, sql, values, callback);
    return send.call(this, sql, values, (error, ...rest) => {
      if (error) discardOnNodeError(connection, error);
      callback(error, ...rest);
    });
  };
}
