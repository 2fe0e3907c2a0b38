// The engine's read path: SELECTs run as prepared statements, each SQL text prepared once and
// reused, without a query builder. On a SQLite file a second connection serves reads: with WAL it
// sees every committed write and never waits for a writer, and better-sqlite3 answers at once,
// so a read never queues behind the single writing connection. Otherwise (MySQL/MariaDB, SQLite
// in memory) a read borrows a connection of knex's pool (mysql2's `execute`: server-side
// prepared statements, cached per connection).
import Database from 'better-sqlite3';
import type { Knex } from 'knex';

export type Row = Record<string, any>;

export interface Reader {
  /** The rows a SELECT returns. */
  all(sql: string, params: readonly unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

/** SQL texts kept prepared per connection; past this many the cache starts again (list shapes vary). */
const MAX_STATEMENTS = 500;

export function createReader(knex: Knex): Reader {
  const client = knex.client.config.client as string;
  const filename = (knex.client.config.connection as { filename?: string } | undefined)?.filename;
  if (client === 'better-sqlite3' && filename && filename !== ':memory:') return sqliteFileReader(filename);
  if (client === 'better-sqlite3') return pooledSqliteReader(knex);
  return mysqlReader(knex);
}

function sqliteFileReader(filename: string): Reader {
  let db: Database.Database | undefined;
  const statements = new Map<string, Database.Statement>();
  const open = () => {
    db = new Database(filename, { fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    db.pragma('query_only = ON'); // this connection never writes
    return db;
  };
  return {
    async all(sql, params) {
      const connection = db ?? open();
      return prepared(statements, sql, () => connection.prepare(sql)).all(...sqliteParams(params)) as Row[];
    },
    async close() {
      db?.close();
      db = undefined;
      statements.clear();
    },
  };
}

function pooledSqliteReader(knex: Knex): Reader {
  const caches = new WeakMap<object, Map<string, Database.Statement>>();
  return {
    async all(sql, params) {
      const connection = (await knex.client.acquireConnection()) as Database.Database;
      try {
        let statements = caches.get(connection);
        if (!statements) caches.set(connection, (statements = new Map()));
        return prepared(statements, sql, () => connection.prepare(sql)).all(...sqliteParams(params)) as Row[];
      } finally {
        await knex.client.releaseConnection(connection);
      }
    },
    async close() {},
  };
}

interface MysqlConnection {
  execute(sql: string, params: unknown[], callback: (error: Error | null, rows: Row[]) => void): void;
}

function mysqlReader(knex: Knex): Reader {
  return {
    async all(sql, params) {
      const connection = (await knex.client.acquireConnection()) as MysqlConnection;
      try {
        return await new Promise<Row[]>((resolve, reject) => {
          connection.execute(sql, params.map(mysqlParam), (error, rows) => (error ? reject(error) : resolve(rows)));
        });
      } finally {
        await knex.client.releaseConnection(connection);
      }
    },
    async close() {},
  };
}

function prepared(statements: Map<string, Database.Statement>, sql: string, prepare: () => Database.Statement): Database.Statement {
  let statement = statements.get(sql);
  if (!statement) {
    if (statements.size >= MAX_STATEMENTS) statements.clear();
    statements.set(sql, (statement = prepare()));
  }
  return statement;
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
