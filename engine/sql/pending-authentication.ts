// Authentication sent with the request's first read. On a database across the network the token
// check is a round trip of its own; a route whose first read is one row (list's count, show,
// create under a parent) sends both as one statement instead: the check's query with the read's
// table LEFT JOINed (or the read's columns computed beside it), so the database merges them into
// one plan. The check stays exact (it runs on every request, in the same statement); only the
// read's row scope is built for the user the token named at its last check, and read again when
// the check says that user's access has changed since.
import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '../behaviours/types.ts';
import type { Condition } from './quote.ts';
import { OPENS_REQUEST, type Row, type Statements } from './statements.ts';
import { AUTH_COLUMN_PREFIX, type AuthenticationCheck } from './authentication-check.ts';
import { coalescedRead, type PointRead, type PointResult } from './coalesced-reads.ts';

/**
 * A read of one row: its select list, and the table it reads with the row's conditions (none:
 * the select list computes the row, as a count does).
 */
export interface OneRowRead {
  columns: Condition;
  from?: { table: string; where: Condition };
  /**
   * The statement texts of this read's shape, by the check that goes with it (`ALONE`: none), kept
   * by whoever wrote the read: only reads whose SQL is the same every time may share one.
   */
  texts?: Map<AuthenticationCheck | typeof ALONE, string>;
  /** A read of one record by id (and parent id) whose shape is the same for every request: it can go with others (./coalesced-reads.ts). */
  point?: PointRead;
}

/** The key of a read's text without a check. */
export const ALONE = Symbol('alone');

/** A token whose signature is valid, not yet checked against the database (src/auth/authenticate.ts). */
export interface PendingAuthentication {
  /** The user the token named at its last check, with the access they had then. */
  guess: AuthUser;
  check: AuthenticationCheck;
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
 * The row `read` finds for the request's user (undefined: none), with the pending authentication
 * check (if any) in the same statement. `read` builds the query for a user (their row scope).
 */
export async function readAuthenticated(statements: Statements, request: FastifyRequest, read: (user: AuthUser) => OneRowRead): Promise<Row | undefined> {
  const pending = takePendingAuthentication(request);
  if (!pending) return readWithoutCheck(statements, read(request.authUser!));
  const { row, record } = await readWithCheck(statements, pending, read(pending.guess));
  if (!(await pending.settle(request, row))) return readWithoutCheck(statements, read(request.authUser!));
  return record && withoutCheck(record);
}

/** The read with the check, alone or with the point reads of its shape that arrive with it. */
function readWithCheck(statements: Statements, pending: PendingAuthentication, read: OneRowRead): Promise<PointResult> {
  const single = async () => {
    const [row] = await statements.all(...withCheck(pending, read), OPENS_REQUEST);
    return { row, record: row && row.id !== null ? row : undefined };
  };
  return coalesces(statements, read) ? coalescedRead(read.point!, pending.check, single) : single();
}

/** The read for a request already authenticated, alone or with the point reads of its shape that arrive with it. */
async function readWithoutCheck(statements: Statements, read: OneRowRead): Promise<Row | undefined> {
  const single = async () => {
    const [row] = await statements.all(...oneRow(read));
    return { row, record: row };
  };
  return (await (coalesces(statements, read) ? coalescedRead(read.point!, null, single) : single())).record;
}

/** Point reads go together where each statement is a round trip, on the statements their shape was written for. */
function coalesces(statements: Statements, read: OneRowRead): boolean {
  return statements.roundTrips === true && read.point?.shape.statements === statements;
}

/** The request's pending check, which the caller now settles. */
export function takePendingAuthentication(request: FastifyRequest): PendingAuthentication | undefined {
  const pending = request.pendingAuthentication;
  request.pendingAuthentication = undefined;
  return pending;
}

/** `read` on its own. */
export function oneRow({ columns, from, texts }: OneRowRead): [string, unknown[]] {
  if (!from) return [`SELECT ${columns.sql}`, columns.params];
  let sql = texts?.get(ALONE);
  if (sql === undefined) {
    const where = from.where.sql ? ` WHERE ${from.where.sql}` : '';
    sql = `SELECT ${columns.sql} FROM ${from.table}${where} LIMIT 1`;
    texts?.set(ALONE, sql);
  }
  return [sql, [...columns.params, ...from.where.params]];
}

/** One statement: the check's row with `read`'s columns (null when the read finds no row). */
export function withCheck({ check }: PendingAuthentication, { columns, from, texts }: OneRowRead): [string, unknown[]] {
  let sql = texts?.get(check);
  if (sql === undefined) {
    const join = from ? ` LEFT JOIN ${from.table} ON ${from.where.sql || '1 = 1'}` : '';
    sql = `SELECT ${check.columns}, ${columns.sql} FROM ${check.from.sql}${join} WHERE ${check.where.sql} LIMIT 1`;
    // A check of its own per token (the first one a process meets) would grow the map: only the shared ones are kept.
    if (texts && texts.size < MAX_TEXTS) texts.set(check, sql);
  }
  return [sql, [...columns.params, ...check.from.params, ...(from?.where.params ?? []), ...check.where.params]];
}

/** Statement texts a read's shape keeps: the checks of known tokens are one object, shared. */
const MAX_TEXTS = 8;

/** Runs a pending check on its own: before anything else the request answers (an error included). */
export async function settleAuthentication(request: FastifyRequest): Promise<void> {
  const pending = takePendingAuthentication(request);
  if (pending) await pending.run(request);
}

/** The read's columns of a combined row (a copy: deleting keys would slow every later access to it). */
export function withoutCheck(row: Row): Row {
  const record: Row = {};
  for (const key in row) if (!key.startsWith(AUTH_COLUMN_PREFIX)) record[key] = row[key];
  return record;
}
