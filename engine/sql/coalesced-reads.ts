// Shows that arrive together are read together. Where every statement is a round trip to a
// database server (MySQL/MariaDB), a statement costs the server a turn of its thread and the
// process a packet to write and one to parse, whatever it reads. Under load many shows of one
// resource arrive in the same turn of the event loop: they wait for the end of that turn (one
// setImmediate) and go as one statement, whose WHERE is the OR of their conditions (each a
// primary-key lookup: the database reads the union of those keys) and which reads the
// authentication check, when they share one (the counters of every known token), once for all of
// them. Each request then takes the row with its own id and parent. A show that arrives alone is
// read by the statement it always had; an idle process adds one turn of the loop, no statement.
import type { AuthenticationCheck } from './authentication-check.ts';
import type { Condition } from './quote.ts';
import { OPENS_REQUEST, type Row, type Statements } from './statements.ts';

/** The read of one record by id (and parent id), written once per resource. */
export interface PointShape {
  statements: Statements;
  /** The select list: the record's columns, `id` and the parent's foreign key among them. */
  columns: Condition;
  /** The quoted table. */
  table: string;
  /** The record's conditions, with `ID` and `PARENT_ID` standing in the bindings for a request's values. */
  where: Condition;
  /** The record's column that names the parent (a nested resource): a row is a request's when it names the request's parent. */
  parentColumn?: string;
}

/** One request's point read. */
export interface PointRead {
  shape: PointShape;
  id: number;
  parentId: number | undefined;
}

/** What a coalesced read gives a request: the statement's row for the check, and the request's record among its rows. */
export interface PointResult {
  /** A row of the statement (the check's columns are on every one); undefined when the check found nothing. */
  row: Row | undefined;
  /** The row of the request's record (check columns included), or undefined when the record is not there. */
  record: Row | undefined;
}

/** Stand-ins for the values a request brings, in a shape's bindings. */
export const ID = Symbol('id');
export const PARENT_ID = Symbol('parent id');

/** A shape's bindings with a request's id and parent id in place of their stand-ins, added to `into`. */
export function bindPoint(bindings: readonly unknown[], id: number, parentId: number | undefined, into: unknown[] = []): unknown[] {
  for (const binding of bindings) into.push(binding === ID ? id : binding === PARENT_ID ? parentId : binding);
  return into;
}

/**
 * Statement sizes: a batch is padded to the next (repeating its last request, which finds the
 * same row), so that a resource has a few statement texts to prepare, not one per count.
 */
const SIZES = [2, 4, 8, 16, 32] as const;
const LARGEST = SIZES[SIZES.length - 1]!;
/** Checks a shape batches by (each its own statements): the shared ones are a few. */
const MAX_CHECKS = 4;

interface Waiting {
  read: PointRead;
  /** The read on its own, for a request that stays alone in its batch. */
  single: () => Promise<PointResult>;
  resolve(result: PointResult): void;
  reject(error: unknown): void;
}

/** The reads of a shape with one check (none: `null`) waiting for the end of the turn, and the statement texts they go as. */
interface Queue {
  shape: PointShape;
  check: AuthenticationCheck | null;
  waiting: Waiting[];
  /** By position in SIZES. */
  texts: string[];
}

const queuesOf = new WeakMap<PointShape, Map<AuthenticationCheck | null, Queue>>();
/** The queues with reads waiting, flushed by one setImmediate. */
let due: Queue[] = [];

/**
 * The request's record read with the others of its shape and check that arrive in this turn of
 * the event loop. `single` is the statement a read on its own runs (the usual one): a batch of one
 * runs it.
 */
export function coalescedRead(read: PointRead, check: AuthenticationCheck | null, single: () => Promise<PointResult>): Promise<PointResult> {
  let queues = queuesOf.get(read.shape);
  if (!queues) queuesOf.set(read.shape, (queues = new Map()));
  let queue = queues.get(check);
  if (!queue) {
    // The counters' check is one object for every known token: a check of its own is read alone.
    if (queues.size >= MAX_CHECKS) return single();
    queue = { shape: read.shape, check, waiting: [], texts: [] };
    queues.set(check, queue);
  }
  if (queue.waiting.length === 0) {
    if (due.length === 0) setImmediate(flush);
    due.push(queue);
  }
  return new Promise((resolve, reject) => queue.waiting.push({ read, single, resolve, reject }));
}

function flush(): void {
  const queues = due;
  due = [];
  for (const queue of queues) {
    const waiting = queue.waiting;
    queue.waiting = [];
    if (waiting.length === 1) {
      const alone = waiting[0]!;
      alone.single().then(alone.resolve, alone.reject);
      continue;
    }
    for (let start = 0; start < waiting.length; start += LARGEST) runBatch(queue, waiting.slice(start, start + LARGEST));
  }
}

function runBatch(queue: Queue, batch: Waiting[]): void {
  const { shape } = queue;
  const size = SIZES.findIndex((n) => n >= batch.length);
  const [sql, params] = statementOf(queue, size, batch);
  // With the check, this is the first statement of each request in it.
  shape.statements.all(sql, params, queue.check ? OPENS_REQUEST : undefined).then(
    (rows) => {
      for (const waiting of batch) waiting.resolve({ row: rows[0], record: recordOf(shape, rows, waiting.read) });
    },
    (error) => {
      for (const waiting of batch) waiting.reject(error);
    },
  );
}

/** The request's row among a batch's: its id, under its parent. */
function recordOf(shape: PointShape, rows: Row[], read: PointRead): Row | undefined {
  for (const row of rows) {
    if (row.id === null || Number(row.id) !== read.id) continue;
    if (shape.parentColumn !== undefined && Number(row[shape.parentColumn]) !== read.parentId) continue;
    return row;
  }
  return undefined;
}

function statementOf(queue: Queue, size: number, batch: Waiting[]): [string, unknown[]] {
  const { shape, check, texts } = queue;
  const count = SIZES[size]!;
  let sql = texts[size];
  if (sql === undefined) {
    const anyOf = new Array(count).fill(`(${shape.where.sql})`).join(' OR ');
    sql = check
      ? `SELECT ${check.columns}, ${shape.columns.sql} FROM ${check.from.sql} LEFT JOIN ${shape.table} ON ${anyOf} WHERE ${check.where.sql}`
      : `SELECT ${shape.columns.sql} FROM ${shape.table} WHERE ${anyOf}`;
    texts[size] = sql;
  }
  const params: unknown[] = [...shape.columns.params];
  if (check) params.push(...check.from.params);
  for (let i = 0; i < count; i++) {
    const { id, parentId } = batch[Math.min(i, batch.length - 1)]!.read;
    bindPoint(shape.where.params, id, parentId, params);
  }
  if (check) params.push(...check.where.params);
  return [sql, params];
}
