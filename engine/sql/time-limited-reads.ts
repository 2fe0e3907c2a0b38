// Reads that may take long (a grouped total over a whole table) under a time limit, without
// holding up the requests beside them. On MySQL/MariaDB the server stops the statement at the
// limit (MariaDB's `SET STATEMENT max_statement_time`, MySQL's MAX_EXECUTION_TIME hint); the
// event loop is free while it runs anyway. SQLite runs a statement on the thread that asks for it,
// so these reads go to a worker thread with its own read-only connection to the file
// (./sqlite-read-worker.ts): the server's thread keeps serving, and a statement past the limit is
// ended by ending the worker. A database in memory cannot be opened twice: there the reads run on
// the server's connection, with no limit (tests and throwaway databases only).
// Either way a read past the limit is a TimeLimitError (503 with Retry-After).
import { Worker } from 'node:worker_threads';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TimeLimitError } from '../errors/http-errors.ts';
import type { Dialect } from './dialect.ts';
import type { Row, Statements } from './statements.ts';

export type Reads = Pick<Statements, 'all'>;

export interface TimeLimitedReads extends Reads {
  close(): Promise<void>;
}

export interface TimeLimitOptions {
  dialect: Dialect;
  /** The server's statements (MySQL/MariaDB; SQLite in memory). */
  statements: Statements;
  limitMs: number;
  /** MySQL/MariaDB: whether the server is MariaDB (`SET STATEMENT`) or MySQL (the optimizer hint). */
  mariadb?: boolean;
  /** SQLite: the database file (`:memory:` has none the worker could open). */
  filename?: string;
}

export function timeLimitedReads(options: TimeLimitOptions): TimeLimitedReads {
  const { dialect, statements, limitMs, filename } = options;
  if (dialect === 'mysql') return serverLimited(statements, limitMs, options.mariadb ?? true);
  if (!filename || filename === ':memory:' || filename.startsWith('file::memory:')) return { all: (sql, params) => statements.all(sql, params), close: async () => {} };
  return workerReads(filename, limitMs);
}

/** MariaDB's 1969 (max_statement_time exceeded), MySQL's 3024 (maximum statement execution time exceeded). */
const TIME_LIMIT_ERRNOS = new Set([1969, 3024]);

function serverLimited(statements: Statements, limitMs: number, mariadb: boolean): TimeLimitedReads {
  const seconds = limitMs / 1000;
  // The limit is the service's setting, not a request's value: it is part of the statement's text.
  const limited = mariadb
    ? (sql: string) => `SET STATEMENT max_statement_time=${seconds} FOR ${sql}`
    : (sql: string) => sql.replace(/^SELECT /, `SELECT /*+ MAX_EXECUTION_TIME(${Math.ceil(limitMs)}) */ `);
  return {
    async all(sql, params) {
      try {
        return await statements.all(limited(sql), params);
      } catch (error) {
        if (TIME_LIMIT_ERRNOS.has((error as { errno?: number }).errno ?? 0)) throw new TimeLimitError(limitMs);
        throw error;
      }
    },
    close: async () => {},
  };
}

interface Pending {
  resolve(rows: Row[]): void;
  reject(error: Error): void;
  /** Set once the worker that runs it is ready: starting a worker (and compiling it from the sources) is not the read's time. */
  timer?: NodeJS.Timeout;
}

/** One worker, started on first use and again after one was ended at the limit; its reads queue. */
function workerReads(filename: string, limitMs: number): TimeLimitedReads {
  const extension = extname(fileURLToPath(import.meta.url));
  const script = new URL(`./sqlite-read-worker${extension}`, import.meta.url);
  // Run from the sources (tests, `npm run dev`), the worker first registers tsx, as the process
  // did with `--import tsx` (which a worker does not take); `npm start` runs the build's JavaScript.
  const entry = extension === '.ts' ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(script.href)}); });` : fileURLToPath(script);
  let worker: Worker | undefined;
  let ready = false;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  // Sent but not answered, in order: after a worker is ended, the others are sent to the next one.
  const queued = new Map<number, { sql: string; params: readonly unknown[] }>();

  const arm = (id: number) => {
    const waiting = pending.get(id);
    if (waiting && !waiting.timer) waiting.timer = setTimeout(() => endAt(id), limitMs).unref();
  };

  const start = (): Worker => {
    const started = new Worker(entry, { workerData: { filename }, eval: extension === '.ts' });
    ready = false;
    started.unref();
    started.on('message', (message: { ready?: true; id: number; rows?: Row[]; error?: { message: string; code?: string } }) => {
      if (message.ready) {
        if (worker !== started) return;
        ready = true;
        for (const id of queued.keys()) arm(id);
        return;
      }
      const { id, rows, error } = message;
      const waiting = pending.get(id);
      queued.delete(id);
      if (!waiting) return;
      pending.delete(id);
      clearTimeout(waiting.timer);
      if (error) waiting.reject(Object.assign(new Error(error.message), error.code ? { code: error.code } : {}));
      else waiting.resolve(rows!);
    });
    // A worker that fails or stops on its own (not ended here) takes its reads with it.
    const failAll = (error: Error) => {
      if (worker !== started) return;
      worker = undefined;
      for (const [id, waiting] of pending) {
        clearTimeout(waiting.timer);
        waiting.reject(error);
        pending.delete(id);
        queued.delete(id);
      }
    };
    started.on('error', failAll);
    started.on('exit', (code) => failAll(new Error(`The SQLite read worker stopped (exit code ${code}).`)));
    return started;
  };

  /** Ends the worker that holds a read past its limit; the reads queued behind it go to a new one, their time counted anew. */
  const endAt = (id: number) => {
    const waiting = pending.get(id);
    if (!waiting) return;
    pending.delete(id);
    queued.delete(id);
    waiting.reject(new TimeLimitError(limitMs));
    const ended = worker;
    worker = undefined;
    void ended?.terminate();
    if (queued.size === 0) return;
    worker = start();
    for (const [queuedId, read] of queued) {
      const other = pending.get(queuedId)!;
      clearTimeout(other.timer);
      other.timer = undefined;
      worker.postMessage({ id: queuedId, sql: read.sql, params: read.params });
    }
  };

  return {
    all(sql, params) {
      worker ??= start();
      const id = nextId++;
      return new Promise<Row[]>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        queued.set(id, { sql, params });
        if (ready) arm(id);
        worker!.postMessage({ id, sql, params });
      });
    },
    async close() {
      for (const waiting of pending.values()) clearTimeout(waiting.timer);
      pending.clear();
      queued.clear();
      const closing = worker;
      worker = undefined;
      await closing?.terminate();
    },
  };
}
