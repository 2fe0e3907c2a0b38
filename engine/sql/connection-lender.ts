// Connections of knex's pool lent to the engine's statements (MySQL/MariaDB). A statement that
// finds a lent connection idle runs on it at once, and one that finishes hands its connection to
// the next statement waiting: tarn's acquire (a pending operation, its promises and a timeout
// timer; ~8 KB allocated per statement, a sixth of a MariaDB list's allocation) is paid only to
// grow the set. At most `max` connections are lent, fewer than the pool holds, so knex's own
// work (transactions, nested writes, migrations) always finds one; and a connection goes back to
// the pool as soon as someone waits there, or once it has been idle for `idleMs`.

export interface LendingPool<Connection> {
  acquire(): Promise<Connection>;
  release(connection: Connection): void;
  /** Whether the connection can run another statement (not closed, no fatal error). */
  usable(connection: Connection): boolean;
  /** How many acquires wait in the pool (knex's own work). */
  waiting(): number;
}

export interface ConnectionLender<Connection> {
  /**
   * Runs `work` on a lent connection; the connection is the lender's again when it settles.
   * `opening`: the first statement of a request, which waits behind the statements of requests under way.
   */
  withConnection<T>(work: (connection: Connection) => T | Promise<T>, opening?: boolean): Promise<T>;
  /** Statements waiting for a lent connection to finish. */
  waiting(): number;
  /** Gives the idle connections back; the busy ones go back as they finish. */
  close(): void;
}

interface Waiter<Connection> {
  resolve(connection: Connection): void;
  reject(error: unknown): void;
}

export function connectionLender<Connection>(pool: LendingPool<Connection>, max: number, idleMs: number): ConnectionLender<Connection> {
  /** Idle connections, the most recently used last, with when each went idle. */
  const idle: { connection: Connection; since: number }[] = [];
  /** Waiting statements of requests under way, and the first statements of requests, each first come first served. */
  const following: Waiter<Connection>[] = [];
  const opening: Waiter<Connection>[] = [];
  const nextWaiter = () => following.shift() ?? opening.shift();
  /** Connections taken from the pool and not given back (busy and idle). */
  let lent = 0;
  let closed = false;
  let idleTimer: NodeJS.Timeout | undefined;

  const giveBack = (connection: Connection) => {
    lent--;
    pool.release(connection);
  };

  /** A connection from the pool for a new slot; the slot is freed again if that fails. */
  const acquire = async (): Promise<Connection> => {
    lent++;
    try {
      return await pool.acquire();
    } catch (error) {
      lent--;
      throw error;
    }
  };

  const take = (opens: boolean): Connection | Promise<Connection> => {
    while (idle.length > 0) {
      const { connection } = idle.pop()!;
      if (pool.usable(connection)) return connection;
      giveBack(connection);
    }
    if (lent < max && !closed) return acquire();
    return new Promise((resolve, reject) => (opens ? opening : following).push({ resolve, reject }));
  };

  const finished = (connection: Connection) => {
    if (!pool.usable(connection) || closed) {
      giveBack(connection);
      // Its slot is free: the next statement waiting gets a connection of its own.
      const waiter = nextWaiter();
      if (waiter) acquire().then(waiter.resolve, waiter.reject);
      return;
    }
    const waiter = nextWaiter();
    if (waiter) return waiter.resolve(connection);
    if (pool.waiting() > 0) return giveBack(connection);
    idle.push({ connection, since: Date.now() });
    idleTimer ??= setTimeout(releaseIdle, idleMs).unref();
  };

  function releaseIdle(): void {
    idleTimer = undefined;
    const before = Date.now() - idleMs;
    // The oldest first; those idle for less than idleMs stay, and are looked at again later.
    while (idle.length > 0 && idle[0]!.since <= before) giveBack(idle.shift()!.connection);
    if (idle.length > 0) idleTimer = setTimeout(releaseIdle, idleMs).unref();
  }

  return {
    async withConnection(work, opens = false) {
      const taken = take(opens);
      const connection = taken instanceof Promise ? await taken : taken;
      try {
        return await work(connection);
      } finally {
        finished(connection);
      }
    },
    waiting: () => following.length + opening.length,
    close() {
      closed = true;
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = undefined;
      while (idle.length > 0) giveBack(idle.pop()!.connection);
      for (const waiter of [...following.splice(0), ...opening.splice(0)]) waiter.reject(new Error('The database connections are closed.'));
    },
  };
}
