// A unit of writing (a transaction, or one statement) that lost a race with a concurrent write is
// run again as a whole: the database rolled it back, so nothing of it stays (./database-errors.ts).
// The waits between attempts grow exponentially with full jitter, so that writers that collided
// do not collide again in step, and the retrying is bounded: past the budget the request answers
// 503 with Retry-After instead of holding its client. The budget starts at the first conflict, not
// at the first attempt: a commit that waited for a cluster's membership change (seconds, while a
// node leaves) and then lost a race still gets its second chance.
import type { Knex } from 'knex';
import { HttpError } from '../errors/http-errors.ts';
import { ERROR_MESSAGES } from '../errors/messages.ts';
import { breatheBetweenStatements } from './breather.ts';
import { isWriteConflict } from './database-errors.ts';

export interface RetryPolicy {
  /** No attempt starts later than this after the first conflict. */
  budgetMs: number;
  /** The first wait is up to this long; each next one up to twice the previous, capped at maxDelayMs. */
  firstDelayMs: number;
  maxDelayMs: number;
}

// Five seconds: a burst of 60 receipts on one sequence through three Galera nodes gave up on 2 to
// 16 of them within one second; with three seconds it was clean until long writes began to let
// other requests run between their statements (./breather.ts), which keeps each unit open longer
// (2 of 60 gave up once).
export const DEFAULT_RETRY: RetryPolicy = { budgetMs: 5000, firstDelayMs: 4, maxDelayMs: 64 };

/** A write that kept losing races for the whole budget: 503, to be tried again in a second. */
export class DatabaseBusyError extends HttpError {
  constructor() {
    super(503, ERROR_MESSAGES.databaseBusy, { 'retry-after': '1' });
  }
}

/** What happened to units of writing so far, for /metrics. */
export const retryCounts = { retried: 0, gaveUp: 0 };

/** Runs `work`, and again after a write conflict, within the policy's budget; then DatabaseBusyError. */
export async function retryConflicts<T>(work: () => Promise<T>, policy: RetryPolicy = DEFAULT_RETRY): Promise<T> {
  let firstConflict: number | undefined;
  let ceiling = policy.firstDelayMs;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!isWriteConflict(error)) throw error;
      const wait = Math.random() * ceiling;
      firstConflict ??= Date.now();
      if (Date.now() - firstConflict + wait > policy.budgetMs) {
        retryCounts.gaveUp++;
        throw new DatabaseBusyError();
      }
      retryCounts.retried++;
      await new Promise((resolve) => setTimeout(resolve, wait));
      ceiling = Math.min(policy.maxDelayMs, ceiling * 2);
    }
  }
}

/**
 * A transaction, run again whole when it lost a race (the database rolled all of it back). A long
 * one lets other requests run between its statements (./breather.ts).
 */
export function inTransaction<T>(knex: Knex, work: (trx: Knex.Transaction) => Promise<T>, policy?: RetryPolicy): Promise<T> {
  return retryConflicts(
    () =>
      knex.transaction((trx) => {
        breatheBetweenStatements(trx);
        return work(trx);
      }),
    policy,
  );
}
