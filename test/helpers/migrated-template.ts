// Fresh installations without running every migration again. Migrating an empty MariaDB
// database takes 15-30 s (some 1,200 DDL statements, each synced to disk), and the suites make
// a dozen fresh installations per run: the migrations run once per test process (on MySQL once per
// run, test/run.ts: TEST_MYSQL_TEMPLATE) into a template, and each fresh database is a copy of its schema (SHOW CREATE TABLE, foreign keys included) and
// of the rows the migrations wrote (knex's own bookkeeping). On SQLite the template is a file,
// copied. The migrations themselves stay tested: the template is made by them, and the tests of
// migrating an empty database (start-up, seed, a data migration) still start from an empty one.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { parseDatabaseUrl } from '../../src/app/config.ts';
import { createKnex } from '../../src/database/connection.ts';
import { migrateLatest } from '../../src/database/migrations.ts';

type MysqlConfig = Extract<ReturnType<typeof parseDatabaseUrl>, { client: 'mysql' }>;

const templates = new Map<string, Promise<string>>();
const cleanups: Array<() => Promise<void>> = [];

/** The migrated template SQLite file of this process. */
export function sqliteTemplate(): Promise<string> {
  let found = templates.get('sqlite');
  if (!found) {
    found = (async () => {
      const dir = mkdtempSync(join(tmpdir(), 'erp-template-'));
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      const file = join(dir, 'erp.sqlite');
      const knex = createKnex({ client: 'sqlite', filename: file });
      try {
        await migrateLatest(knex);
        await knex.raw('PRAGMA wal_checkpoint(TRUNCATE)');
      } finally {
        await knex.destroy();
      }
      return file;
    })();
    templates.set('sqlite', found);
  }
  return found;
}

/** A new SQLite file at `file`, migrated: a copy of the template. */
export async function copySqliteTemplate(file: string): Promise<void> {
  copyFileSync(await sqliteTemplate(), file);
}

let sqliteImage: Promise<Buffer> | undefined;

/**
 * Makes the in-memory SQLite database of `knex` (created, not yet connected) start as a copy of
 * the template: better-sqlite3 opens a Buffer as a database image in memory. Migrating an empty
 * one took a second of CPU per app the tests start. The image says "rollback journal" where the
 * template's file says WAL (header bytes 18-19), which memory cannot use.
 */
export async function memoryFromTemplate(knex: Knex): Promise<void> {
  sqliteImage ??= sqliteTemplate().then((file) => {
    const image = readFileSync(file);
    image[18] = 1;
    image[19] = 1;
    return image;
  });
  (knex.client as { connectionSettings: { filename: string | Buffer } }).connectionSettings.filename = await sqliteImage;
}

const admins = new Map<string, Knex>();

/** A connection of its own to the server (one: the session's settings hold for each statement). */
function adminOf(config: MysqlConfig): Knex {
  const key = `${config.host}:${config.port}`;
  let admin = admins.get(key);
  if (!admin) {
    admin = knexFactory({ client: 'mysql2', connection: { host: config.host, port: config.port, user: config.user, password: config.password }, pool: { min: 1, max: 1 } });
    admins.set(key, admin);
  }
  return admin;
}

/**
 * The migrated template database on the server `config` names: this process's own, or the run's
 * when test/run.ts names one in TEST_MYSQL_TEMPLATE (it migrates it before its workers start, they
 * and the timed step find it migrated, and test/run.ts drops it at the end).
 */
function mysqlTemplate(config: MysqlConfig): Promise<string> {
  const shared = process.env.TEST_MYSQL_TEMPLATE;
  const name = shared ?? `${config.database}_template_${process.pid}`;
  // Keyed by the template: one migration of it, whichever database of the server asks first.
  const key = `mysql ${config.host}:${config.port}/${name}`;
  let found = templates.get(key);
  if (!found) {
    found = (async () => {
      const admin = adminOf(config);
      if (!shared) {
        await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
        cleanups.push(async () => void (await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``)));
      }
      await admin.raw(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      const knex = createKnex({ ...config, database: name });
      try {
        await migrateLatest(knex);
      } finally {
        await knex.destroy();
      }
      return name;
    })();
    templates.set(key, found);
  }
  return found;
}

/**
 * Starts migrating the MySQL template of the server `url` names now, in the background: on
 * MariaDB it takes 15-30 s, which the first files of a run (the cluster's) then overlap instead
 * of the first file that copies it waiting. A failure shows when a test awaits the template.
 */
export function prepareMysqlTemplate(url: string): void {
  migrateMysqlTemplate(url).catch(() => {});
}

/** Migrates the MySQL template of the server `url` names (test/run.ts, before its MySQL workers start). */
export async function migrateMysqlTemplate(url: string): Promise<void> {
  const config = parseDatabaseUrl(url);
  if (config.client === 'mysql') await mysqlTemplate(config);
}

/**
 * Gives the database `name` on the server `config` names the template's tables and rows, when it
 * has no table yet (a database something already migrated is left as it is).
 */
export async function copyMysqlTemplate(config: MysqlConfig, name: string): Promise<void> {
  const admin = adminOf(config);
  const rows = <T>(result: unknown) => (result as [T[]])[0];
  const [existing] = rows<{ n: number }>(await admin.raw('SELECT COUNT(*) AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?', [name]));
  if (Number(existing?.n) > 0) return;
  const template = await mysqlTemplate(config);
  const tables = rows<{ name: string }>(
    await admin.raw("SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'", [template]),
  ).map((row) => row.name);
  await admin.raw('SET FOREIGN_KEY_CHECKS = 0');
  try {
    for (const table of tables) {
      const [created] = rows<Record<string, string>>(await admin.raw(`SHOW CREATE TABLE \`${template}\`.\`${table}\``));
      await admin.raw(String(created!['Create Table']).replace(/^CREATE TABLE `/, `CREATE TABLE \`${name}\`.\``));
    }
    // The rows the migrations wrote (their bookkeeping, data they added), without generated columns.
    const columns = rows<{ table_name: string; column_name: string }>(
      await admin.raw(
        "SELECT TABLE_NAME AS table_name, COLUMN_NAME AS column_name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND EXTRA NOT LIKE '%GENERATED%' ORDER BY ORDINAL_POSITION",
        [template],
      ),
    );
    for (const table of tables) {
      const [{ n }] = rows<{ n: number }>(await admin.raw(`SELECT COUNT(*) AS n FROM \`${template}\`.\`${table}\``)) as [{ n: number }];
      if (Number(n) === 0) continue;
      const list = columns
        .filter((column) => column.table_name === table)
        .map((column) => `\`${column.column_name}\``)
        .join(', ');
      await admin.raw(`INSERT INTO \`${name}\`.\`${table}\` (${list}) SELECT ${list} FROM \`${template}\`.\`${table}\``);
    }
  } finally {
    await admin.raw('SET FOREIGN_KEY_CHECKS = 1');
  }
}

/** Drops the templates of this process (test/run.ts, once every suite ran). */
export async function dropTemplates(): Promise<void> {
  // One still being made in the background (prepareMysqlTemplate) finishes first.
  await Promise.allSettled(templates.values());
  for (const cleanup of cleanups.splice(0)) await cleanup();
  templates.clear();
  sqliteImage = undefined;
  for (const admin of admins.values()) await admin.destroy();
  admins.clear();
}
