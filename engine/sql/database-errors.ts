// What a database error says about the database, as opposed to the request: a write that lost a
// race (run it again), or a server that cannot serve right now (503, and not this connection).

interface DriverError {
  code?: string;
  errno?: number;
  fatal?: boolean;
  name?: string;
  message?: string;
}

/**
 * The write lost a race with a concurrent one and was rolled back whole, so running the whole unit
 * again is safe: an InnoDB deadlock victim, and on a Galera cluster a transaction that failed
 * certification against one committed on another node, or was aborted by it (both 1213). On
 * SQLite, a transaction that read before another process committed a write cannot write on that
 * snapshot (SQLITE_BUSY_SNAPSHOT, with no wait: the busy timeout does not apply); run anew, it reads
 * the committed state.
 *
 * Not a lock-wait timeout (1205): it is as safe to run again (the unit is rolled back), but it
 * comes after innodb_lock_wait_timeout (50 s by default) or a causal read that could not catch up
 * with the cluster, past any budget for running again; it answers 503 (isDatabaseUnavailable).
 */
export function isWriteConflict(error: unknown): boolean {
  const e = error as DriverError | undefined;
  return e?.code === 'ER_LOCK_DEADLOCK' || e?.errno === 1213 || e?.code === 'SQLITE_BUSY_SNAPSHOT';
}

/**
 * The node cannot serve, whatever the statement: a Galera node outside the primary component or
 * not synced answers 1047 to every table statement (while `SELECT 1` still works), a server
 * shutting down or killing connections answers 1053, 1927 or 1317. The connection that got it is
 * worth nothing until the node is back: it is dropped (src/database/connection.ts).
 */
export function isNodeUnavailable(error: unknown): boolean {
  const e = error as DriverError | undefined;
  if (!e) return false;
  return (
    e.errno === 1047 || // ER_UNKNOWN_COM_ERROR: "WSREP has not yet prepared node for application use"
    e.errno === 1053 || // ER_SERVER_SHUTDOWN
    e.errno === 1927 || // ER_CONNECTION_KILLED
    e.errno === 1317 || // ER_QUERY_INTERRUPTED (the server stopping a statement on shutdown)
    e.errno === 1180 // ER_ERROR_DURING_COMMIT: a node that lost the cluster during COMMIT
  );
}

/** Errors that say the database cannot be reached, is not ready or too busy, not that the request was wrong. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_LOCK_WAIT_TIMEOUT',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as DriverError | undefined;
  if (!e) return false;
  if (e.name === 'KnexTimeoutError' || (e.code !== undefined && UNAVAILABLE_CODES.has(e.code))) return true;
  if (isNodeUnavailable(e) || isWriteConflict(e)) return true;
  // mysql2 marks errors that closed the connection as fatal ("Connection lost", "Can't add new command when connection is in closed state").
  return e.fatal === true || /connection is in closed state|Connection lost/i.test(e.message ?? '');
}

/** Connections that got a node-state error: the pool and the statements' lender drop them. */
const discarded = new WeakSet<object>();

/** Marks the connection to be dropped instead of reused, when `error` says its node cannot serve. */
export function discardOnNodeError(connection: object, error: unknown): void {
  if (isNodeUnavailable(error)) discarded.add(connection);
}

export function isDiscarded(connection: object): boolean {
  return discarded.has(connection);
}
