// `npm test`: runs every test/**/*.test.ts with uvu, on SQLite and, when TEST_MYSQL_URL is set,
// on a MySQL/MariaDB database created for this run and dropped after it. Ends with a plain
// "N passed, N failed, N skipped" line. `npm test -- <pattern>` runs a subset.
//
// With both databases the two halves run side by side, each in a process of its own (the SQLite
// one also runs the tests that use no database; the MySQL one those that do, and the cluster's),
// and their output is printed one after the other: the run takes the longer half's time rather
// than the sum. TEST_SERIAL=1 runs them in one process, one after the other. Files named
// `*.timed.test.ts` measure speed: they run after both halves, with the machine to themselves, on
// both databases (one at a time: a timed file that measures each runs them in turn).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import knexFactory from 'knex';
import { parse } from 'uvu/parse';
import { run } from 'uvu/run';
import { parseDatabaseUrl } from '../src/app/config.ts';
import { closeSharedApps } from './helpers/app.ts';
import { waitForQuietMachine } from './helpers/quiet-machine.ts';

async function main(): Promise<number> {
  if (process.env.TEST_MYSQL_URL && !process.env.TEST_DATABASES && !process.env.TEST_SERIAL) return runHalvesSideBySide();
  const pattern = process.argv[2] ? new RegExp(process.argv[2]) : /\.test\.ts$/;
  const mysql = process.env.TEST_MYSQL_URL ? await createMysqlDatabase(process.env.TEST_MYSQL_URL) : undefined;
  if (mysql) process.env.TEST_MYSQL_DATABASE_URL = mysql.url;

  const counts = captureUvuCounts();
  try {
    const { suites } = await parse('test', pattern, { cwd: process.cwd() });
    await run(suites.filter((suite) => suite.name.endsWith('.test.ts') && inThisHalf(suite.file) && inThisStep(suite.file)));
  } finally {
    await closeSharedApps();
    if (mysql) await mysql.drop();
  }
  const { total, passed, skipped, slowest } = counts();
  // uvu's Total counts the tests that ran: a skipped one is in Skipped only.
  const failed = total - passed;
  console.log(`slowest files: ${slowest().join(', ')}`);
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

/** In the MySQL half, only the files that use a database (the SQLite half runs the others). */
function inThisHalf(file: string): boolean {
  if (process.env.TEST_DATABASES !== 'mysql') return true;
  return /databaseTargets\(|serviceDatabases\(|TEST_MYSQL_DATABASE_URL|TEST_GALERA_URLS/.test(readFileSync(file, 'utf8'));
}

/** TEST_TIMED=exclude leaves the timed files out (the halves), =only runs them alone (after the halves). */
function inThisStep(file: string): boolean {
  const timed = /\.timed\.test\.ts$/.test(file);
  if (process.env.TEST_TIMED === 'only') return timed;
  if (process.env.TEST_TIMED === 'exclude') return !timed;
  return true;
}

/** Two children of this script, one per database, run at once; their outputs are printed in turn and their counts summed. */
async function runHalvesSideBySide(): Promise<number> {
  const half = (database: 'sqlite' | 'mysql' | 'sqlite,mysql', timed: 'exclude' | 'only') => {
    const env: NodeJS.ProcessEnv = { ...process.env, TEST_DATABASES: database, TEST_TIMED: timed };
    if (database === 'sqlite') {
      delete env.TEST_MYSQL_URL;
      delete env.TEST_GALERA_URLS;
    }
    const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const name = timed === 'only' ? 'timed, alone' : database;
    return new Promise<{ database: string; output: string; code: number }>((resolve) => child.on('close', (code) => resolve({ database: name, output, code: code ?? 1 })));
  };
  const halves = await Promise.all([half('sqlite', 'exclude'), half('mysql', 'exclude')]);
  const quiet = await waitForQuietMachine();
  const timed = await half('sqlite,mysql', 'only');
  halves.push({ ...timed, output: `${quiet}\n${timed.output}` });
  const sum = { passed: 0, failed: 0, skipped: 0 };
  for (const { database, output } of halves) {
    process.stdout.write(`\n=== ${database} ===\n${output}`);
    const counts = /^(\d+) passed, (\d+) failed, (\d+) skipped$/m.exec(output);
    if (counts) {
      sum.passed += Number(counts[1]);
      sum.failed += Number(counts[2]);
      sum.skipped += Number(counts[3]);
    } else sum.failed += 1;
  }
  console.log(`${sum.passed} passed, ${sum.failed} failed, ${sum.skipped} skipped`);
  return halves.every((result) => result.code === 0) && sum.failed === 0 ? 0 : 1;
}

/** uvu prints "Total: / Passed: / Skipped:"; read them as it writes them, and time each file from its name line to the next. */
function captureUvuCounts() {
  const seen = { total: 0, passed: 0, skipped: 0 };
  const durations: Array<[string, number]> = [];
  let current: { file: string; started: number } | undefined;
  const finishFile = () => {
    if (current) durations.push([current.file, performance.now() - current.started]);
    current = undefined;
  };
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: any, ...rest: any[]) => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the terminal's colour codes (ESC [ ... m)
    const text = String(chunk).replace(/\x1b\[[0-9;]*m/g, '');
    const match = /^\s*(Total|Passed|Skipped):\s+(\d+)/.exec(text);
    if (match) seen[match[1]!.toLowerCase() as keyof typeof seen] += Number(match[2]);
    const file = /^(\S+\.test\.ts)\s/.exec(text);
    if (file || match) finishFile();
    if (file) current = { file: file[1]!, started: performance.now() };
    return write(chunk, ...rest);
  }) as typeof process.stdout.write;
  const slowest = () =>
    durations
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
      .map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`);
  return () => ({ ...seen, slowest });
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
