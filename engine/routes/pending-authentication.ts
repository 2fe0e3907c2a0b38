// Authentication sent with the request's first read. On a database across the network the token
// check is a round trip of its own; a route that reads one row first (show, create under a parent)
// can send both as one statement instead: `SELECT auth.*, first.* FROM (check) auth LEFT JOIN
// (read) first`. The check stays exact (it runs on every request, in the same statement); only
// the read's row scope is built for the user the token named at its last check, and read again
// when the check says that user's access has changed since.
import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '../behaviours/types.ts';
import type { Condition } from '../sql/quote.ts';
import type { Row, Statements } from '../sql/statements.ts';

/** The check's columns carry this prefix so that they cannot meet a record's. */
export const AUTH_COLUMN_PREFIX = 'auth__';

/** A token whose signature is valid, not yet checked against the database (src/auth/authenticate.ts). */
export interface PendingAuthentication {
  /** The user the token named at its last check, with the access they had then. */
  guess: AuthUser;
  /** One row (columns prefixed with AUTH_COLUMN_PREFIX) for a token still valid, none otherwise. */
  check: Condition;
  /** Completes the check with its row: sets request.authUser, or throws 401. False when the user's access is no longer the guess's. */
  settle(request: FastifyRequest, row: Row | undefined): Promise<boolean>;
  /** The check on its own, settled: for a request that fails before its first read. */
  run(request: FastifyRequest): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set instead of authUser by a route that authenticates with its first read. */
    pendingAuthentication?: PendingAuthentication;
  }
}

/**
 * The first row of `read` for the request's user, with the pending authentication check (if any)
 * in the same statement. `read` builds the query for a user (their row scope).
 */
export async function readAuthenticated(statements: Statements, request: FastifyRequest, read: (user: AuthUser) => Condition): Promise<Row | undefined> {
  const pending = takePendingAuthentication(request);
  if (!pending) return first(statements, read(request.authUser!));
  const [row] = await statements.all(...withCheck(pending, read(pending.guess)));
  if (!(await pending.settle(request, row))) return first(statements, read(request.authUser!));
  return row!.id === null ? undefined : withoutCheck(row!);
}

/** The request's pending check, which the caller now settles. */
export function takePendingAuthentication(request: FastifyRequest): PendingAuthentication | undefined {
  const pending = request.pendingAuthentication;
  request.pendingAuthentication = undefined;
  return pending;
}

/** One statement: the check's row with the first row of `query` (its columns null when it has none). */
export function withCheck(pending: PendingAuthentication, query: Condition): [string, unknown[]] {
  const sql = `SELECT token_check.*, first_read.* FROM (${pending.check.sql}) token_check LEFT JOIN (${query.sql}) first_read ON 1 = 1`;
  return [sql, [...pending.check.params, ...query.params]];
}

/** Runs a pending check on its own: before anything else the request answers (an error included). */
export async function settleAuthentication(request: FastifyRequest): Promise<void> {
  const pending = takePendingAuthentication(request);
  if (pending) await pending.run(request);
}

async function first(statements: Statements, query: Condition): Promise<Row | undefined> {
  const [row] = await statements.all(query.sql, query.params);
  return row;
}

/** The read's columns of a combined row (a copy: deleting keys would slow every later access to it). */
export function withoutCheck(row: Row): Row {
  const record: Row = {};
  for (const key in row) if (!key.startsWith(AUTH_COLUMN_PREFIX)) record[key] = row[key];
  return record;
}
