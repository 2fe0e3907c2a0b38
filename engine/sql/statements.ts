// The SQL the engine runs itself, as prepared statements: each SQL text is prepared once per
// connection and reused, without a query builder. Reads (`all`): on a SQLite file a second,
// query-only connection serves them; with WAL it sees every committed write and never waits for
// the writer, and better-sqlite3 answers at once, so a read never queues behind a write.
// On MySQL/MariaDB every statement runs on a connection of knex's pool lent to the engine
// (./connection-lender.ts; mysql2: server-side prepared statements, prepared once per connection).
// SQLite in memory reads on knex's one connection. Single-statement writes on SQLite (`insert`)
// run on knex's connection, so they wait for any transaction knex has open.
import Database from 'better-sqlite3';
import type { Knex } from 'knex';
import { breathe } from './breather.ts';
import { connectionLender } from './connection-lender.ts';
import { dialectOf, roundTrips } from './dialect.ts';
import { discardOnNodeError, isDiscarded } from './database-errors.ts';

export type Row = Record<string, any>;

/**
 * A request's first statement (its authentication check, alone or with its first read). On
 * MySQL/MariaDB, when every connection is busy, it waits behind the statements of requests
 * already under way (./connection-lender.ts); every other statement is one of those.
 */
export interface StatementOptions {
  opensRequest?: boolean;
}

export const OPENS_REQUEST: StatementOptions = { opensRequest: true };

export interface Statements {
  /** The rows a SELECT returns. */
  all(sql: string, params: readonly unknown[], options?: StatementOptions): Promise<Row[]>;
  /** Runs an INSERT on the writing connection; returns the new row's id. */
  insert(sql: string, params: readonly unknown[]): Promise<number>;
  /** Whether an INSERT can end in `RETURNING *` (SQLite 3.35+, MariaDB 10.5+; not MySQL). */
  readonly insertReturns: boolean;
  /** Whether each statement is a round trip to a database server (MySQL/MariaDB, not SQLite): reads that arrive together are worth one statement. */
  readonly roundTrips?: boolean;
  /** Statements waiting for a connection (beside those waiting in knex's pool). */
  waiting(): number;
  /** Runs an `INSERT ... RETURNING` on the writing connection; returns the new row as a read would. */
  insertReturning(sql: string, params: readonly unknown[]): Promise<Row>;
  /**
   * Runs `work` as one transaction on one writing connection, with prepared statements and no
   * query builder: for short units of a few statements (a create and its change), where knex's
   * transaction costs more than the work. Rolled back when `work` throws.
   */
  transaction<T>(work: (statements: TransactionStatements) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** What a transaction of Statements runs: its statements, on its connection. */
export type TransactionStatements = Pick<Statements, 'all' | 'insert' | 'insertReturning' | 'insertReturns'>;

/**
 * SQLite's page cache per connection, in KiB: SQLite's own default. better-sqlite3 builds SQLite
 * with 16 MB, which a server's writing and reading connections each filled under creates (pages
 * the OS already caches for the file): ~5 MB more resident at the bench's peak, for no throughput
 * on its rows.
 */
export const SQLITE_PAGE_CACHE_KIB = 2000;

/** SQL texts kept prepared per connection; past this many the cache starts again (list shapes vary). */
const MAX_STATEMENTS = 500;

interface MysqlStatement {
  execute(params: unknown[], callback: (error: Error | null, result: any) => void): void;
}

interface MysqlConnection {
  prepare(sql: string, callback: (error: Error | null, statement: MysqlStatement) => void): void;
}

/**
 * Statements kept per MySQL connection; past this many the map starts again. Below mysql2's own
 * cache of the connection (maxPreparedStatements, src/database/connection.ts: 256), so a statement held here is
 * always among the most recent that cache has handed out, and never one it has closed.
 */
const MAX_MYSQL_STATEMENTS = 128;

/** Connections of knex's pool never lent to statements: knex's transactions always find one. */
const POOL_RESERVE = 2;
/** A lent connection idle this long goes back to knex's pool. */
const LENT_IDLE_MS = 20;

/** `insertReturns`: what the server supports (engine/sql/dialect.ts), read once at boot. */
export function createStatements(knex: Knex, { insertReturns = false } = {}): Statements {
  const statements = driverStatements(knex);
  // Reported like knex's own queries ('query' events), so a listener counts every statement.
  const report = (sql: string, params: readonly unknown[]) => {
    if (knex.listenerCount('query') > 0) knex.emit('query', { sql, bindings: params, prepared: true });
  };
  return {
    all(sql, params, options) {
      report(sql, params);
      return statements.all(sql, params, options);
    },
    insert(sql, params) {
      report(sql, params);
      return statements.insert(sql, params);
    },
    insertReturns,
    roundTrips: roundTrips(knex),
    waiting: () => statements.waiting(),
    insertReturning(sql, params) {
      report(sql, params);
      return statements.insertReturning(sql, params);
    },
    transaction(work) {
      // BEGIN and COMMIT are round trips too: counted like knex's.
      report('BEGIN', []);
      return statements.transaction(async (inside) => {
        const result = await work({
          all(sql, params) {
            report(sql, params);
            return inside.all(sql, params);
          },
          insert(sql, params) {
            report(sql, params);
            return inside.insert(sql, params);
          },
          insertReturning(sql, params) {
            report(sql, params);
            return inside.insertReturning(sql, params);
          },
          insertReturns,
        });
        report('COMMIT', []);
        return result;
      });
    },
    close: () => statements.close(),
  };
}

type DriverStatements = Omit<Statements, 'insertReturns' | 'transaction'> & {
  transaction<T>(work: (statements: Omit<TransactionStatements, 'insertReturns'>) => Promise<T>): Promise<T>;
};

function driverStatements(knex: Knex): DriverStatements {
  const filename = (knex.client.config.connection as { filename?: string } | undefined)?.filename;
  if (dialectOf(knex) === 'mysql') {
    const pool = knex.client.pool as { max: number; numPendingAcquires(): number };
    const lender = connectionLender<MysqlConnection>(
      {
        acquire: () => knex.client.acquireConnection(),
        release: (connection) => void knex.client.releaseConnection(connection),
        usable: (connection) => Boolean(knex.client.validateConnection(connection)) && !isDiscarded(connection),
        waiting: () => pool.numPendingAcquires(),
      },
      Math.max(1, pool.max - POOL_RESERVE),
      LENT_IDLE_MS,
    );
    // Each connection's statement is prepared once (mysql2's prepare, which also finds it in
    // mysql2's own cache) and then executed directly: connection.execute() would send every
    // call through a prepare command, that cache's lookup and its option checks (~5 µs a query).
    const prepared = statementCache<MysqlConnection, MysqlStatement>(MAX_MYSQL_STATEMENTS);
    const statementOn = (connection: MysqlConnection, sql: string): MysqlStatement | Promise<MysqlStatement> =>
      prepared.get(connection, sql) ??
      new Promise((resolve, reject) =>
        connection.prepare(sql, (error, statement) => {
          if (error) {
            discardOnNodeError(connection, error);
            return reject(error);
          }
          prepared.set(connection, sql, statement);
          resolve(statement);
        }),
      );
    const run = (connection: MysqlConnection, statement: MysqlStatement, params: readonly unknown[]) =>
      new Promise<any>((resolve, reject) =>
        statement.execute(params.map(mysqlParam), (error, result) => {
          if (!error) return resolve(result);
          discardOnNodeError(connection, error);
          reject(error);
        }),
      );
    const execute = (sql: string, params: readonly unknown[], opensRequest = false) =>
      lender.withConnection((connection) => {
        const statement = statementOn(connection, sql);
        return statement instanceof Promise ? statement.then((prepared) => run(connection, prepared, params)) : run(connection, statement, params);
      }, opensRequest);
    const plain = (connection: MysqlConnection, sql: string) =>
      new Promise<void>((resolve, reject) =>
        (connection as unknown as { query(sql: string, callback: (error: Error | null) => void): void }).query(sql, (error) => {
          if (!error) return resolve();
          discardOnNodeError(connection, error);
          reject(error);
        }),
      );
    return {
      all: (sql, params, options) => execute(sql, params, options?.opensRequest),
      insert: async (sql, params) => Number((await execute(sql, params)).insertId),
      insertReturning: async (sql, params) => (await execute(sql, params))[0],
      transaction: (work) =>
        lender.withConnection(async (connection) => {
          const on = async (sql: string, params: readonly unknown[]) => {
            const statement = statementOn(connection, sql);
            return run(connection, statement instanceof Promise ? await statement : statement, params);
          };
          await plain(connection, 'START TRANSACTION');
          try {
            const result = await work({
              all: (sql, params) => on(sql, params),
              insert: async (sql, params) => Number((await on(sql, params)).insertId),
              insertReturning: async (sql, params) => (await on(sql, params))[0],
            });
            await plain(connection, 'COMMIT');
            return result;
          } catch (error) {
            await plain(connection, 'ROLLBACK').catch(() => {});
            throw error;
          }
        }),
      waiting: () => lender.waiting(),
      async close() {
        lender.close();
      },
    };
  }

  // better-sqlite3: statements are prepared per connection and run synchronously; a long request
  // lets the others run between its statements (./breather.ts).
  const pooled = async <T>(work: (connection: any) => T | Promise<T>) => {
    await breathe();
    return withPoolConnection(knex, work);
  };
  const prepared = statementCache<Database.Database, Database.Statement>(MAX_STATEMENTS);
  const statement = (connection: Database.Database, sql: string) => {
    let found = prepared.get(connection, sql);
    if (!found) prepared.set(connection, sql, (found = connection.prepare(sql)));
    return found;
  };
  const insert = (sql: string, params: readonly unknown[]) =>
    pooled((connection: Database.Database) => Number(statement(connection, sql).run(...sqliteParams(params)).lastInsertRowid));
  // all(), not get(): get() resets the statement after its first row, before SQLite reports it done,
  // and SQLite runs its automatic WAL checkpoint only when a statement is done. With get() the
  // write-ahead log of a file database grew without end under creates (hundreds of MB a minute).
  const insertReturning = (sql: string, params: readonly unknown[]) => pooled((connection: Database.Database) => statement(connection, sql).all(...sqliteParams(params))[0] as Row);
  // The writing connection is held for the whole unit (knex's pool has one), so nothing else runs
  // on it between BEGIN and COMMIT; every statement answers at once. IMMEDIATE: the unit writes, so
  // it takes the write lock first (waiting for another process's commit) rather than reading on a
  // snapshot that another process's commit would make unwritable (SQLITE_BUSY_SNAPSHOT).
  const transaction: DriverStatements['transaction'] = (work) =>
    pooled(async (connection: Database.Database) => {
      statement(connection, 'BEGIN IMMEDIATE').run();
      try {
        const result = await work({
          all: async (sql, params) => {
            await breathe();
            return statement(connection, sql).all(...sqliteParams(params)) as Row[];
          },
          insert: async (sql, params) => {
            await breathe();
            return Number(statement(connection, sql).run(...sqliteParams(params)).lastInsertRowid);
          },
          insertReturning: async (sql, params) => {
            await breathe();
            return statement(connection, sql).all(...sqliteParams(params))[0] as Row;
          },
        });
        statement(connection, 'COMMIT').run();
        return result;
      } catch (error) {
        if (connection.inTransaction) statement(connection, 'ROLLBACK').run();
        throw error;
      }
    });

  if (!filename || filename === ':memory:') {
    // One in-memory database per connection: reads share the writer's.
    const all = (sql: string, params: readonly unknown[]) => pooled((connection: Database.Database) => statement(connection, sql).all(...sqliteParams(params)) as Row[]);
    return { all, insert, insertReturning, transaction, waiting: () => 0, async close() {} };
  }
  let reads: Database.Database | undefined;
  const readConnection = () => {
    if (reads) return reads;
    reads = new Database(filename, { fileMustExist: true });
    reads.pragma('busy_timeout = 5000');
    reads.pragma(`cache_size = -${SQLITE_PAGE_CACHE_KIB}`);
    reads.pragma('query_only = ON'); // this connection never writes
    return reads;
  };
  return {
    async all(sql, params) {
      await breathe();
      return statement(readConnection(), sql).all(...sqliteParams(params)) as Row[];
    },
    insert,
    insertReturning,
    transaction,
    // Reads never wait (better-sqlite3 answers at once); writes wait in knex's pool.
    waiting: () => 0,
    async close() {
      reads?.close();
      reads = undefined;
    },
  };
}

/**
 * Prepared statements kept per connection, by SQL text. Past `max` a connection's set starts
 * again: everything it holds was prepared since it last started, at most `max` statements ago.
 */
function statementCache<Connection extends object, Statement>(max: number) {
  const byConnection = new WeakMap<Connection, Map<string, Statement>>();
  const of = (connection: Connection) => {
    let statements = byConnection.get(connection);
    if (!statements) byConnection.set(connection, (statements = new Map()));
    return statements;
  };
  return {
    get: (connection: Connection, sql: string): Statement | undefined => of(connection).get(sql),
    set(connection: Connection, sql: string, statement: Statement): void {
      const statements = of(connection);
      if (statements.size >= max) statements.clear();
      statements.set(sql, statement);
    },
  };
}

async function withPoolConnection<T>(knex: Knex, work: (connection: any) => T | Promise<T>): Promise<T> {
  const connection = await knex.client.acquireConnection();
  try {
    return await work(connection);
  } finally {
    await knex.client.releaseConnection(connection);
  }
}

/** better-sqlite3 binds numbers, strings, bigints, buffers and null: booleans are stored as 1 and 0. */
function sqliteParams(params: readonly unknown[]): unknown[] {
  return params.map((value) => (typeof value === 'boolean' ? Number(value) : value === undefined ? null : value));
}

function mysqlParam(value: unknown): unknown {
  if (typeof value === 'boolean') return Number(value);
  // Prepared statements want LIMIT and OFFSET as exact integers; mysql2 sends whole numbers as DOUBLE otherwise.
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  return value === undefined ? null : value;
}
