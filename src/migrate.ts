// Runs the knex migrations in migrations/: the TypeScript files through tsx, or their compiled
// JavaScript under dist/. Either way a migration is recorded under its .ts name, so a database
// migrated by one is up to date for the other.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { MIGRATIONS_DIR } from './paths.ts';

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

/** Applies pending migrations; returns the names applied. Safe to run from several processes (knex locks). */
export async function migrateLatest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}

export async function rollbackAll(knex: Knex): Promise<void> {
  await knex.migrate.rollback({ migrationSource }, true);
}
