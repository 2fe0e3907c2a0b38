// Databases for suites that run real service processes (test/helpers/service-process.ts): a SQLite
// file always, and a MySQL/MariaDB database when TEST_MYSQL_DATABASE_URL is set. Empty, or with
// `migrated` a copy of the migrated template (./migrated-template.ts) for suites that do not test
// what a first start on an empty database does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory from 'knex';
import { parseDatabaseUrl } from '../../src/app/config.ts';
import { copyMysqlTemplate, copySqliteTemplate } from './migrated-template.ts';
import { inThisRun } from './targets.ts';

export interface ServiceDatabase {
  name: string;
  /** Makes the database; returns its DATABASE_URL and how to drop it. */
  prepare(): Promise<{ url: string; drop(): Promise<void> }>;
}

/** `suffix` names the MySQL database (`<test database>_<suffix>`) and the SQLite folder. */
export function serviceDatabases(suffix: string, { migrated = false } = {}): ServiceDatabase[] {
  const databases: ServiceDatabase[] = [
    {
      name: 'sqlite',
      async prepare() {
        const dir = mkdtempSync(join(tmpdir(), `erp-${suffix}-`));
        if (migrated) await copySqliteTemplate(join(dir, 'erp.sqlite'));
        return { url: `sqlite:${join(dir, 'erp.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
      },
    },
  ];
  const mysqlUrl = process.env.TEST_MYSQL_DATABASE_URL;
  if (!mysqlUrl) return databases.filter((database) => inThisRun(database.name as 'sqlite'));
  databases.push({
    name: 'mysql',
    async prepare() {
      const config = parseDatabaseUrl(mysqlUrl);
      if (config.client !== 'mysql') throw new Error('TEST_MYSQL_DATABASE_URL is a mysql:// URL');
      const admin = knexFactory({ client: 'mysql2', connection: { host: config.host, port: config.port, user: config.user, password: config.password } });
      const name = `${config.database}_${suffix}`;
      await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      if (migrated) await copyMysqlTemplate(config, name);
      const target = new URL(mysqlUrl);
      target.pathname = `/${name}`;
      return {
        url: target.toString(),
        async drop() {
          await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
          await admin.destroy();
        },
      };
    },
  });
  return databases.filter((database) => inThisRun(database.name as 'sqlite' | 'mysql'));
}
