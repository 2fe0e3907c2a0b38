// A long request (a 1,000-line order: its checks, its transaction, its answer) must not hold the
// event loop from its first statement to its last: the requests that arrive meanwhile (a show
// takes a millisecond) would wait for all of it. better-sqlite3 answers synchronously, so on
// SQLite nothing else runs between a request's statements unless it lets it: before a statement,
// once the loop has been held for a slice of time, it gives the loop a turn (setImmediate: the
// I/O waiting runs first). Statements inside a transaction stay in it: a unit is still written
// whole or not at all. The other requests read on their own SQLite connection (./statements.ts)
// and see the last commit meanwhile; writes wait for the transaction as before. On MySQL/MariaDB
// each statement is a round trip that already lets others run.
import type { Knex } from 'knex';
import { roundTrips as roundTripsOf } from './dialect.ts';

/** How long a request's work may hold the event loop before it lets the others run. */
export const SLICE_MS = 5;

let since = performance.now();

/** A turn of the event loop for the others once the loop has been held for SLICE_MS; undefined (no wait) before. */
export function breathe(): Promise<void> | undefined {
  if (performance.now() - since < SLICE_MS) return undefined;
  return new Promise((resolve) =>
    setImmediate(() => {
      since = performance.now();
      resolve();
    }),
  );
}

/** The loop has just run other work (an answer from the database arrived): the slice starts again. */
export function turnTaken(): void {
  since = performance.now();
}

interface QueryingClient {
  query(connection: unknown, query: unknown): Promise<unknown>;
}

/** Makes `trx`'s statements give the event loop a turn once every SLICE_MS of work. */
export function breatheBetweenStatements(trx: Knex.Transaction): void {
  const client = trx.client as unknown as QueryingClient;
  const query = client.query;
  const roundTrips = roundTripsOf(trx);
  client.query = async function (this: QueryingClient, connection, statement) {
    // BEGIN, COMMIT and ROLLBACK (knex passes them as text) go at once: knex marks the
    // transaction complete as it sends COMMIT, and would refuse one sent a turn later.
    if (typeof statement !== 'string') {
      const pause = breathe();
      if (pause) await pause;
    }
    const result = await query.call(this, connection, statement);
    if (roundTrips) turnTaken();
    return result;
  };
}
