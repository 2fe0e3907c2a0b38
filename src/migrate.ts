// Runs the knex migrations in migrations/ (TypeScript files, loaded through tsx).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Knex } from 'knex';

const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const migrationSource: Knex.MigrationSource<string> = {
  async getMigrations() {
    return readdirSync(MIGRATIONS_DIR)
      .filter((file) => /^\d{14}_[a-z0-9_]+\.ts$/.test(file))
      .sort();
  },
  getMigrationName: (file) => file,
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
