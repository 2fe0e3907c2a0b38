// The worker thread of ./time-limited-reads.ts: a read-only connection of its own to the SQLite
// file, answering one statement at a time. better-sqlite3 runs a statement to its end on the
// thread that calls it; here that thread is this one, so a long report holds only it, and ending
// it (when the time limit is reached) ends the statement.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

interface Read {
  id: number;
  sql: string;
  params: unknown[];
}

const database = new Database(workerData.filename as string, { readonly: true, fileMustExist: true });
database.pragma(`busy_timeout = ${Number(workerData.busyTimeoutMs ?? 5000)}`);
const prepared = new Map<string, Database.Statement>();
const MAX_PREPARED = 500;

parentPort!.postMessage({ ready: true });

parentPort!.on('message', ({ id, sql, params }: Read) => {
  try {
    let statement = prepared.get(sql);
    if (!statement) {
      if (prepared.size >= MAX_PREPARED) prepared.clear();
      prepared.set(sql, (statement = database.prepare(sql)));
    }
    parentPort!.postMessage({ id, rows: statement.all(...params) });
  } catch (error) {
    const { message, code } = error as { message: string; code?: string };
    parentPort!.postMessage({ id, error: { message, code } });
  }
});
