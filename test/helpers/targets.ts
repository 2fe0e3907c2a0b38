import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory from 'knex';
import { parseDatabaseUrl } from '../../src/app/config.ts';
import { copyMysqlTemplate, copySqliteTemplate } from './migrated-template.ts';

// The databases the suite runs on: SQLite always, MariaDB/MySQL when TEST_MYSQL_URL is set
// (test/run.ts creates a fresh database for the run and passes it as TEST_MYSQL_DATABASE_URL);
// TEST_DATABASES=sqlite or mysql keeps one of them.
export interface Target {
  name: 'sqlite' | 'mysql';
  databaseUrl: string;
}

export function databaseTargets(): Target[] {
  const targets: Target[] = [{ name: 'sqlite', databaseUrl: 'sqlite::memory:' }];
  const mysql = process.env.TEST_MYSQL_DATABASE_URL;
  if (mysql) targets.push({ name: 'mysql', databaseUrl: mysql });
  return targets.filter((target) => inThisRun(target.name));
}

/**
 * The databases of the whole run, all its processes together (test/run.ts says so in TEST_RUN_DATABASES
 * to each): for work that proves the same on either and goes where the run has time.
 */
export function runDatabases(): Array<'sqlite' | 'mysql'> {
  const named = process.env.TEST_RUN_DATABASES ?? (process.env.TEST_MYSQL_URL ? 'sqlite,mysql' : 'sqlite');
  return named.split(',') as Array<'sqlite' | 'mysql'>;
}

/** TEST_DATABASES (test/run.ts sets it for each process of a run on both databases) limits the run to one database. */
export function inThisRun(database: 'sqlite' | 'mysql'): boolean {
  const only = process.env.TEST_DATABASES;
  return !only || only.split(',').includes(database);
}

/**
 * A database of its own for a test that needs a fresh installation: a temporary SQLite file, or a
 * new MySQL database. Empty, or with `migrated` already migrated (a copy of a template the
 * migrations made once for the process: ./migrated-template.ts), for tests that start a service on
 * it rather than test the migrations.
 */
export async function freshDatabase(target: Target, name: string, { migrated = false } = {}): Promise<{ target: Target; drop(): Promise<void> }> {
  if (target.name === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `erp-${name}-`));
    if (migrated) await copySqliteTemplate(join(dir, 'erp.sqlite'));
    return { target: { ...target, databaseUrl: `sqlite:${join(dir, 'erp.sqlite')}` }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const config = parseDatabaseUrl(target.databaseUrl);
  if (config.client !== 'mysql') throw new Error('a MySQL target needs a mysql:// URL');
  const admin = knexFactory({ client: 'mysql2', connection: { host: config.host, port: config.port, user: config.user, password: config.password } });
  const database = `${config.database}_${name}`;
  await admin.raw(`DROP DATABASE IF EXISTS \`${database}\``);
  await admin.raw(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  if (migrated) await copyMysqlTemplate(config, database);
  const url = new URL(target.databaseUrl);
  url.pathname = `/${database}`;
  return {
    target: { ...target, databaseUrl: url.toString() },
    async drop() {
      await admin.raw(`DROP DATABASE IF EXISTS \`${database}\``);
      await admin.destroy();
    },
  };
}
