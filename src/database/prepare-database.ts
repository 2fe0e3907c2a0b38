// What a database needs before the API serves from it: the migrations, then the reference data,
// the permissions of the registry and the first administrator (src/seed/). `npm start` does it
// under the start-up lock unless MIGRATE_ON_START=false; then `npm run erp -- migrate` is the
// release step that does it, and the processes wait for it to be done.
import type { Knex } from 'knex';
import { retryConflicts, type Registry } from '../../engine/index.ts';
import type { Config } from '../app/config.ts';
import { migrateLatest, pendingMigrations } from './migrations.ts';
import { seed, type SeedResult } from '../seed/index.ts';
import { currentHolder, withStartupLock } from './startup-lock.ts';

export interface Prepared extends SeedResult {
  migrations: string[];
}

/** Migrates and seeds, one process at a time. */
export function prepareDatabase(knex: Knex, config: Config, registry?: Registry): Promise<Prepared> {
  return withStartupLock(
    knex,
    async () => {
      const migrations = await migrateLatest(knex);
      // Each step of the seed adds only what is missing: after a write conflict with a request
      // served meanwhile (another node's), the whole seed runs again.
      return { migrations, ...(await retryConflicts(() => seed(knex, config, registry))) };
    },
    config.startupWaitSeconds * 1000,
  );
}

export class DatabaseNotPrepared extends Error {
  constructor(waitedSeconds: number, pending: string[]) {
    super(
      `The database still lacks ${pending.length > 0 ? `${pending.length} migration(s) (${pending.slice(0, 3).join(', ')}${pending.length > 3 ? ', ...' : ''})` : 'its seed'} after ${waitedSeconds} s: run the release step, npm run erp -- migrate (MIGRATE_ON_START=false leaves it to that step).`,
    );
    this.name = 'DatabaseNotPrepared';
  }
}

/** Waits until the release step has migrated and seeded the database (no pending migration, no holder of the lock). */
export async function waitForPreparedDatabase(knex: Knex, config: Config): Promise<void> {
  const until = Date.now() + config.startupWaitSeconds * 1000;
  for (;;) {
    const pending = await pendingMigrations(knex);
    if (pending.length === 0 && (await currentHolder(knex)) === undefined && (await knex('users').first('id')) !== undefined) return;
    if (Date.now() > until) throw new DatabaseNotPrepared(config.startupWaitSeconds, pending);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
