// `npm test`: runs every test/**/*.test.ts with uvu in one process, on SQLite and, when
// TEST_MYSQL_URL is set, on a MySQL/MariaDB database created for this run and dropped after it.
// Ends with a plain "N passed, N failed, N skipped" line. `npm test -- <pattern>` runs a subset.
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { parse } from 'uvu/parse';
import { run } from 'uvu/run';
import { parseDatabaseUrl } from '../src/app/config.ts';
import { closeSharedApps } from './helpers/app.ts';

async function main(): Promise<number> {
  const pattern = process.argv[2] ? new RegExp(process.argv[2]) : /\.test\.ts$/;
  const mysql = process.env.TEST_MYSQL_URL ? await createMysqlDatabase(process.env.TEST_MYSQL_URL) : undefined;
  if (mysql) process.env.TEST_MYSQL_DATABASE_URL = mysql.url;

  const counts = captureUvuCounts();
  try {
    const { suites } = await parse('test', pattern, { cwd: process.cwd() });
    await run(suites.filter((suite) => suite.name.endsWith('.test.ts')));
  } finally {
    await closeSharedApps();
    if (mysql) await mysql.drop();
  }
  const { total, passed, skipped } = counts();
  const failed = total - passed - skipped;
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
  return failed > 0 || process.exitCode ? 1 : 0;
}

async function createMysqlDatabase(url: string) {
  const config = parseDatabaseUrl(url);
  if (config.client !== 'mysql') throw new Error('TEST_MYSQL_URL must be a mysql:// URL');
  const name = `erp_test_${randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'mysql2', connection: { host: config.host, port: config.port, user: config.user, password: config.password } });
  await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    async drop() {
      await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.destroy();
    },
  };
}

/** uvu prints "Total: / Passed: / Skipped:"; read them as it writes them. */
function captureUvuCounts() {
  const seen = { total: 0, passed: 0, skipped: 0 };
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: any, ...rest: any[]) => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the terminal's colour codes (ESC [ ... m)
    const text = String(chunk).replace(/\x1b\[[0-9;]*m/g, '');
    const match = /^\s*(Total|Passed|Skipped):\s+(\d+)/.exec(text);
    if (match) seen[match[1]!.toLowerCase() as keyof typeof seen] += Number(match[2]);
    return write(chunk, ...rest);
  }) as typeof process.stdout.write;
  return () => seen;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
