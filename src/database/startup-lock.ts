// One process at a time migrates and seeds the database, however many start together, on one
// server, on SQLite, and on a Galera cluster. The lock is a row of its own table, taken by
// inserting it: two processes inserting it at once get one row, also on two cluster nodes (the
// second insert fails as a duplicate, or on certification). A server's named locks (GET_LOCK)
// would not do: Galera grants them per node. The holder renews its lease while it works; a lease
// that ran out (its process died) is taken over, again by one process only.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { databaseNow as databaseClock, isWriteConflict, retryConflicts, tableOptions } from '../../engine/index.ts';

const TABLE = 'startup_lock';
const NAME = 'startup';
/** A holder that stops renewing (it died) loses the lock after this long. */
const LEASE_MS = 30_000;
const RENEW_EVERY_MS = 5_000;
const POLL_MS = 250;

export class StartupLockTimeout extends Error {
  constructor(waitedSeconds: number, holder: string) {
    super(`Another process (${holder}) has been preparing the database for over ${waitedSeconds} s; start again once it is done (STARTUP_WAIT sets how long to wait).`);
    this.name = 'StartupLockTimeout';
  }
}

/** Runs `work` while holding the start-up lock; waits at most `waitMs` for it. */
export async function withStartupLock<T>(knex: Knex, work: () => Promise<T>, waitMs: number): Promise<T> {
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const until = Date.now() + waitMs;
  let tableMade = false;
  // While another process migrates, SQLite's write lock can be held past the busy timeout (a long
  // migration on a loaded machine), and InnoDB's row lock past its wait: not taken yet, try again.
  const take = async () => {
    try {
      if (!tableMade) await ensureLockTable(knex);
      tableMade = true;
      return await tryToTake(knex, holder);
    } catch (error) {
      if (isBusy(error)) return false;
      throw error;
    }
  };
  while (!(await take())) {
    if (Date.now() > until) throw new StartupLockTimeout(Math.round(waitMs / 1000), (await currentHolder(knex)) ?? 'unknown');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * (0.5 + Math.random())));
  }
  const renewal = setInterval(() => {
    void databaseNow(knex)
      .then((now) =>
        knex(TABLE)
          .where({ name: NAME, holder })
          .update({ expires_at: now + LEASE_MS }),
      )
      .catch(() => {}); // a missed renewal is made up by the next one, well within the lease
  }, RENEW_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(renewal);
    // A release that fails (the database went away, a conflict that kept losing) costs the others
    // the rest of the lease, never this process's start.
    await retryConflicts(() => knex(TABLE).where({ name: NAME, holder }).delete()).catch(() => {});
  }
}

/** Who holds the lock now, if anyone does (a lease that ran out holds nothing). */
export async function currentHolder(knex: Knex): Promise<string | undefined> {
  if (!(await knex.schema.hasTable(TABLE))) return undefined;
  const row = await knex(TABLE).where({ name: NAME }).first('holder', 'expires_at');
  return row && Number(row.expires_at) > (await databaseNow(knex)) ? String(row.holder) : undefined;
}

async function tryToTake(knex: Knex, holder: string): Promise<boolean> {
  const now = await databaseNow(knex);
  try {
    await knex(TABLE).insert({ name: NAME, holder, expires_at: now + LEASE_MS });
    return true;
  } catch (error) {
    if (!isDuplicate(error) && !isWriteConflict(error)) throw error;
  }
  try {
    const taken = await knex(TABLE)
      .where({ name: NAME })
      .where('expires_at', '<', now)
      .update({ holder, expires_at: now + LEASE_MS });
    return Number(taken) === 1;
  } catch (error) {
    if (isWriteConflict(error)) return false; // another process took it over first
    throw error;
  }
}

async function ensureLockTable(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE TABLE IF NOT EXISTS \`${TABLE}\` (\`name\` VARCHAR(32) NOT NULL PRIMARY KEY, \`holder\` VARCHAR(191) NOT NULL, \`expires_at\` BIGINT NOT NULL)${tableOptions(knex)}`,
  );
}

/** The database's clock in ms: the processes that share the lock may run on machines whose clocks differ. */
function databaseNow(knex: Knex): Promise<number> {
  return databaseClock(knex);
}

function isDuplicate(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Another process holds the lock the statement needed for longer than it waits (it is writing). */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'ER_LOCK_WAIT_TIMEOUT';
}
