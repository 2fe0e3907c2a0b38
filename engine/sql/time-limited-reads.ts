// Reads that may take long (a grouped total over a whole table) under a time limit, without
// holding up the requests beside them.
// - At most a few run at once (`slots`): the others wait their turn. On MySQL/MariaDB they would
//   otherwise take every connection the requests share (measured: ten aggregates took a show's
//   p99 from 3 ms to seconds); a read that waits past the limit answers 503 without having run.
// - On MySQL/MariaDB the server stops a statement at the limit (MariaDB's `SET STATEMENT
//   max_statement_time`, MySQL's MAX_EXECUTION_TIME hint).
// - SQLite runs a statement on the thread that asks for it, so these reads go to a worker thread
//   with its own read-only connection to the file (./sqlite-read-worker.ts), one at a time: the
//   server's thread keeps serving, and a statement past the limit is ended by ending the worker.
//   A database in memory cannot be opened twice: there they run on the server's connection, with
//   no limit (tests and throwaway databases only).
// Either way a read past the limit is a TimeLimitError (503 with Retry-After): a client waits at
// most twice the limit, once for its turn and once for its statement.
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
  /** MySQL/MariaDB: how many run at once (SQLite's worker runs one). */
  slots?: number;
}

/** Two of the pool's connections at most: the requests keep the others. */
export const DEFAULT_REPORT_SLOTS = 2;

export function timeLimitedReads(options: TimeLimitOptions): TimeLimitedReads {
  const { dialect, statements, limitMs, filename } = options;
  if (dialect === 'mysql') return gated(options.slots ?? DEFAULT_REPORT_SLOTS, limitMs, serverLimited(statements, limitMs, options.mariadb ?? true));
  if (!filename || filename === ':memory:' || filename.startsWith('file::memory:')) return { all: (sql, params) => statements.all(sql, params), close: async () => {} };
  return gated(1, limitMs, workerReads(filename, limitMs));
}

interface Waiting {
  run(): void;
  timer: NodeJS.Timeout;
}

/** At most `slots` of `reads` at once, in the order asked; one not started within the limit is a TimeLimitError. */
function gated(slots: number, limitMs: number, reads: TimeLimitedReads): TimeLimitedReads {
  let running = 0;
  const queue: Waiting[] = [];
  const next = () => {
    running--;
    const waiting = queue.shift();
    if (!waiting) return;
    clearTimeout(waiting.timer);
    waiting.run();
  };
  return {
    all(sql, params) {
      return new Promise<Row[]>((resolve, reject) => {
        const run = () => {
          running++;
          reads.all(sql, params).then(resolve, reject).finally(next);
        };
        if (running < slots) return run();
        const waiting: Waiting = {
          run,
          timer: setTimeout(() => {
            queue.splice(queue.indexOf(waiting), 1);
            reject(new TimeLimitError(limitMs));
          }, limitMs).unref(),
        };
        queue.push(waiting);
      });
    },
    async close() {
      for (const waiting of queue.splice(0)) clearTimeout(waiting.timer);
      await reads.close();
    },
  };
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

interface Running {
  id: number;
  resolve(rows: Row[]): void;
  reject(error: Error): void;
  /** Set once the worker is ready: starting a worker (and compiling it from the sources) is not the read's time. */
  timer?: NodeJS.Timeout;
}

/**
 * One worker, started on first use and again after one was ended at the limit. It is given one read
 * at a time (the gate above keeps the others), whose time counts from when the worker has it.
 */
function workerReads(filename: string, limitMs: number): TimeLimitedReads {
  const extension = extname(fileURLToPath(import.meta.url));
  const script = new URL(`./sqlite-read-worker${extension}`, import.meta.url);
  // Run from the sources (tests, `npm run dev`), the worker first registers tsx, as the process
  // did with `--import tsx` (which a worker does not take); `npm start` runs the build's JavaScript.
  const entry = extension === '.ts' ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(script.href)}); });` : fileURLToPath(script);
  let worker: Worker | undefined;
  let ready = false;
  let nextId = 1;
  let running: Running | undefined;

  const arm = () => {
    if (running && ready && !running.timer) running.timer = setTimeout(endRunning, limitMs).unref();
  };
  const settle = (outcome: { rows?: Row[]; error?: Error }) => {
    const read = running;
    running = undefined;
    if (!read) return;
    clearTimeout(read.timer);
    if (outcome.error) read.reject(outcome.error);
    else read.resolve(outcome.rows!);
  };

  const start = (): Worker => {
    const started = new Worker(entry, { workerData: { filename }, eval: extension === '.ts' });
    ready = false;
    started.unref();
    started.on('message', (message: { ready?: true; id: number; rows?: Row[]; error?: { message: string; code?: string } }) => {
      if (worker !== started) return;
      if (message.ready) {
        ready = true;
        return arm();
      }
      if (message.id !== running?.id) return;
      const { rows, error } = message;
      settle(error ? { error: Object.assign(new Error(error.message), error.code ? { code: error.code } : {}) } : { rows });
    });
    // A worker that fails or stops on its own (not ended here) takes its read with it.
    const failed = (error: Error) => {
      if (worker !== started) return;
      worker = undefined;
      settle({ error });
    };
    started.on('error', failed);
    started.on('exit', (code) => failed(new Error(`The SQLite read worker stopped (exit code ${code}).`)));
    return started;
  };

  /** Ends the worker that holds a read past its limit (ending its statement); the next read starts a new one. */
  const endRunning = () => {
    const ended = worker;
    worker = undefined;
    settle({ error: new TimeLimitError(limitMs) });
    void ended?.terminate();
  };

  return {
    all(sql, params) {
      worker ??= start();
      const id = nextId++;
      return new Promise<Row[]>((resolve, reject) => {
        running = { id, resolve, reject };
        arm();
        worker!.postMessage({ id, sql, params });
      });
    },
    async close() {
      settle({ error: new Error('The report reads were closed.') });
      const closing = worker;
      worker = undefined;
      await closing?.terminate();
    },
  };
}
