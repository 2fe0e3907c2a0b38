// Runs the knex migrations in migrations/: the TypeScript files through tsx, or their compiled
// JavaScript under dist/. Either way a migration is recorded under its .ts name, so a database
// migrated by one is up to date for the other.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { MIGRATIONS_DIR } from '../app/paths.ts';

const MIGRATION_FILE = /^\d{14}_[a-z0-9_]+\.(ts|js)$/;

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const migrationSource: Knex.MigrationSource<string> = {
  async getMigrations() {
    return readdirSync(MIGRATIONS_DIR)
      .filter((file) => MIGRATION_FILE.test(file))
      .sort();
  },
  getMigrationName: (file) => file.replace(/\.js$/, '.ts'),
  async getMigration(file) {
    return (await import(pathToFileURL(join(MIGRATIONS_DIR, file)).href)) as Migration;
  },
};

/**
 * Applies pending migrations; returns the names applied. Run it under the start-up lock
 * (src/database/startup-lock.ts) when other processes may start at the same moment: knex's own lock is a
 * row its first run inserts, and two first runs at once insert two, which locks every later run
 * out ("Migration table is already locked").
 */
export async function migrateLatest(knex: Knex): Promise<string[]> {
  await repairMigrationLock(knex);
  const [, applied] = (await knex.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}

/**
 * The migrations the database lacks, read without writing anything (knex's own listing would
 * create its tables): a process that waits for the release step must not race it.
 */
export async function pendingMigrations(knex: Knex): Promise<string[]> {
  const all = (await migrationSource.getMigrations([])).map(migrationSource.getMigrationName);
  if (!(await knex.schema.hasTable('knex_migrations'))) return all;
  const done = new Set((await knex('knex_migrations').pluck('name')).map(String));
  return all.filter((name) => !done.has(name));
}

/**
 * knex's lock table as knex expects it, one unlocked row: a concurrent first start of an earlier
 * version could leave two rows, and a process killed while migrating leaves the lock taken. Only
 * called by the holder of the start-up lock, so nobody else is migrating.
 */
async function repairMigrationLock(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('knex_migrations_lock'))) return;
  const rows = await knex('knex_migrations_lock').orderBy('index').select('index', 'is_locked');
  if (rows.length > 1) await knex('knex_migrations_lock').where('index', '>', rows[0].index).delete();
  if (rows.length > 0 && Number(rows[0].is_locked) !== 0) await knex('knex_migrations_lock').update({ is_locked: 0 });
}

export async function rollbackAll(knex: Knex): Promise<void> {
  await knex.migrate.rollback({ migrationSource }, true);
}
