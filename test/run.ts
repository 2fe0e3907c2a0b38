// `npm test`: runs every test/**/*.test.ts with uvu, on SQLite and, when TEST_MYSQL_URL is set,
// on a MySQL/MariaDB database created for this run and dropped after it. Ends with a plain
// "N passed, N failed, N skipped" line. `npm test -- <pattern>` runs a subset.
//
// With both databases, workers run the files side by side (TEST_WORKERS per database, default 2),
// each a process with an installation of its own; a worker takes the next file of its database
// when it has run the last, the longest files first (./runner/). The SQLite workers also run the
// files that use no database. Their outputs are printed one after the other. TEST_SERIAL=1 runs
// everything in one process instead. Files named `*.timed.test.ts` measure speed: they run after
// the workers, with the machine to themselves, on both databases (one at a time: a timed file
// that measures each runs them in turn).
//
// Every file's time is printed at the end, slowest first, and kept in test/.last-run-timings.json
// (the workers' and the timed step's times keyed by where they ran: `sqlite:`, `mysql:`, `timed:`).
// TEST_SHUFFLE=<integer> runs the files in an order shuffled by that seed (=random: a seed picked
// and printed), to find a file that passes only after another.
import './runner/register.ts';
import { spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory from 'knex';
import { parse } from 'uvu/parse';
import { run } from 'uvu/run';
import { parseDatabaseUrl } from '../src/app/config.ts';
import { closeSharedApps, sharedApp } from './helpers/app.ts';
import { dropTemplates, migrateMysqlTemplate, prepareMysqlTemplate } from './helpers/migrated-template.ts';
import { inThisRun } from './helpers/targets.ts';
import { waitForQuietMachine } from './helpers/quiet-machine.ts';
import { expectedSeconds, longestFirst } from './runner/file-queue.ts';
import { askParent, runHandedFiles } from './runner/handed-files.ts';

/** Where the last run's file times are kept (gitignored). */
const TIMINGS_FILE = 'test/.last-run-timings.json';

async function main(): Promise<number> {
  const seed = shuffleSeed();
  if (process.env.TEST_MYSQL_URL && !process.env.TEST_DATABASES && !process.env.TEST_SERIAL) return runWorkersSideBySide(seed);
  const pattern = process.argv[2] ? new RegExp(process.argv[2]) : /\.test\.ts$/;
  const mysql = process.env.TEST_MYSQL_URL ? await createMysqlDatabase(process.env.TEST_MYSQL_URL) : undefined;
  if (mysql) process.env.TEST_MYSQL_DATABASE_URL = mysql.url;
  // A whole run in one process starts migrating the MySQL template at once (its first files overlap it).
  if (mysql && !process.argv[2] && !process.env.TEST_MYSQL_TEMPLATE) prepareMysqlTemplate(mysql.url);

  const counts = captureUvuCounts();
  try {
    // The run's MySQL database is the shared installation (test/helpers/app.ts), fully seeded,
    // made before any file runs: a file that starts an app of its own on that database with the
    // administrator alone (minimalSeed) would otherwise leave it without companies, and the shared
    // installation made after it would keep an administrator of no company.
    if (mysql && process.env.TEST_TIMED !== 'only' && inThisRun('mysql')) await sharedApp({ name: 'mysql', databaseUrl: mysql.url });
    if (process.env.TEST_WORKER) await runHandedFiles(askParent);
    else {
      const { suites } = await parse('test', pattern, { cwd: process.cwd() });
      const files = suites.filter((suite) => suite.name.endsWith('.test.ts') && inThisProcess(suite.file) && inThisStep(suite.file));
      if (seed !== undefined) console.log(`files shuffled with seed ${seed} (TEST_SHUFFLE=${seed} runs them in this order again)`);
      await run(seed === undefined ? files : shuffled(files, seed));
    }
  } finally {
    await closeSharedApps();
    await dropTemplates();
    if (mysql) await mysql.drop();
  }
  const { total, passed, skipped, durations } = counts();
  // uvu's Total counts the tests that ran: a skipped one is in Skipped only.
  const failed = total - passed;
  const times: Timings = Object.fromEntries(durations.map(([file, ms]) => [`${runLabel()}:${file}`, Math.round(ms)]));
  // A child of a run on both databases hands its times to the parent, which prints and keeps them all.
  if (process.env.TEST_TIMINGS_OUT) writeFileSync(process.env.TEST_TIMINGS_OUT, JSON.stringify(times));
  else console.log(keepTimings(times, seed));
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
  return failed > 0 || process.exitCode ? 1 : 0;
}

/** Where this process's files run: a worker (sqlite, mysql), the timed step, or both databases in one process. */
function runLabel(): string {
  if (process.env.TEST_TIMED === 'only') return 'timed';
  if (process.env.TEST_DATABASES) return process.env.TEST_DATABASES.replace(/,/g, '+');
  return process.env.TEST_MYSQL_URL ? 'sqlite+mysql' : 'sqlite';
}

/** TEST_SHUFFLE: an integer is the seed; `random` picks one (then passed on to the workers as a number). */
function shuffleSeed(): number | undefined {
  const value = process.env.TEST_SHUFFLE?.trim();
  if (!value) return undefined;
  if (value === 'random') {
    const seed = randomInt(2 ** 31);
    process.env.TEST_SHUFFLE = String(seed);
    return seed;
  }
  if (!/^-?\d+$/.test(value)) throw new Error(`TEST_SHUFFLE must be an integer (the seed of the order) or "random", not ${JSON.stringify(value)}`);
  return Number(BigInt.asUintN(32, BigInt(value)));
}

/** Fisher-Yates with mulberry32 seeded by `seed`: the same seed, the same order (of the same list). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const result = [...items];
  for (let index = result.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [result[index], result[other]] = [result[other]!, result[index]!];
  }
  return result;
}

/** Milliseconds per file, keyed `<where it ran>:<file>`. */
type Timings = Record<string, number>;

/** Writes the times to TIMINGS_FILE, slowest first, and answers them as a table. */
function keepTimings(times: Timings, seed: number | undefined): string {
  const sorted = Object.entries(times).sort((a, b) => b[1] - a[1]);
  const file = { finished: new Date().toISOString(), pattern: process.argv[2] ?? null, shuffle: seed ?? null, unit: 'ms', files: Object.fromEntries(sorted) };
  writeFileSync(TIMINGS_FILE, `${JSON.stringify(file, null, 1)}\n`);
  const width = Math.max(0, ...sorted.map(([key]) => key.indexOf(':')));
  const lines = sorted.map(([key, ms]) => {
    const at = key.indexOf(':');
    return `${(ms / 1000).toFixed(2).padStart(7)}  ${key.slice(0, at).padEnd(width)}  ${key.slice(at + 1)}`;
  });
  return `\nfile times in s, slowest first (kept in ${TIMINGS_FILE}):\n${lines.join('\n')}`;
}

/** A connection to the MySQL/MariaDB server of `url` (no database). */
function mysqlServer(url: string) {
  const config = parseDatabaseUrl(url);
  if (config.client !== 'mysql') throw new Error('TEST_MYSQL_URL must be a mysql:// URL');
  return knexFactory({ client: 'mysql2', connection: { host: config.host, port: config.port, user: config.user, password: config.password } });
}

async function createMysqlDatabase(url: string) {
  const name = `erp_test_${randomBytes(4).toString('hex')}`;
  const admin = mysqlServer(url);
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

/** Whether `file` uses a database of its own choosing: the others run on SQLite alone in a run on both. */
function usesDatabase(file: string): boolean {
  return /databaseTargets\(|serviceDatabases\(|TEST_MYSQL_DATABASE_URL|TEST_GALERA_URLS/.test(readFileSync(file, 'utf8'));
}

/** In a process of MySQL alone, only the files that use a database. */
function inThisProcess(file: string): boolean {
  return process.env.TEST_DATABASES !== 'mysql' || usesDatabase(file);
}

const isTimed = (file: string) => /\.timed\.test\.ts$/.test(file);

/** TEST_TIMED=exclude leaves the timed files out (the workers), =only runs them alone (after the workers). */
function inThisStep(file: string): boolean {
  if (process.env.TEST_TIMED === 'only') return isTimed(file);
  if (process.env.TEST_TIMED === 'exclude') return !isTimed(file);
  return true;
}

/** Workers per database in a run on both (TEST_WORKERS), each a child of this script with its own installation. */
function workersPerDatabase(): number {
  const value = Number(process.env.TEST_WORKERS ?? 2);
  if (!Number.isInteger(value) || value < 1) throw new Error(`TEST_WORKERS must be a positive integer, not ${JSON.stringify(process.env.TEST_WORKERS)}`);
  return value;
}

/**
 * The run on both databases: workers per database (children of this script, TEST_WORKERS each),
 * all at once, taking the database's files from one queue as they finish the last, longest first;
 * then the timed files in one more child, alone. Outputs are printed in turn and counts summed.
 */
async function runWorkersSideBySide(seed: number | undefined): Promise<number> {
  const timings = mkdtempSync(join(tmpdir(), 'erp-test-timings-'));
  // The template of fresh MySQL databases (test/helpers/migrated-template.ts), migrated here once
  // for every worker and the timed step; dropped here once all ran.
  const template = `erp_template_${randomBytes(4).toString('hex')}`;
  process.env.TEST_MYSQL_TEMPLATE = template;
  const templateMigrated = migrateMysqlTemplate(process.env.TEST_MYSQL_URL!);

  const pattern = process.argv[2] ? new RegExp(process.argv[2]) : /\.test\.ts$/;
  const { suites } = await parse('test', pattern, { cwd: process.cwd() });
  const files = suites.filter((suite) => suite.name.endsWith('.test.ts') && !isTimed(suite.file));
  const expected = expectedSeconds(TIMINGS_FILE);
  const queue = (database: 'sqlite' | 'mysql') => {
    const names = files.filter((suite) => database === 'sqlite' || usesDatabase(suite.file)).map((suite) => suite.name);
    return seed === undefined ? longestFirst(names, (file) => expected(file, database)) : shuffled(names, seed);
  };
  const queues = { sqlite: queue('sqlite'), mysql: queue('mysql') };

  let children = 0;
  const child = (database: 'sqlite' | 'mysql' | 'sqlite,mysql', name: string, files?: string[]) => {
    const out = join(timings, `${children++}.json`);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TEST_DATABASES: database,
      TEST_TIMED: files ? 'exclude' : 'only',
      TEST_TIMINGS_OUT: out,
      TEST_RUN_DATABASES: 'sqlite,mysql',
    };
    if (files) env.TEST_WORKER = name;
    if (database === 'sqlite') {
      delete env.TEST_MYSQL_URL;
      delete env.TEST_GALERA_URLS;
    }
    const spawned = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    // A worker asks for its next file when it has run the last; null: the queue is empty.
    spawned.on('message', (message) => {
      if (message === 'next' && files) spawned.send({ file: files.shift() ?? null });
    });
    let output = '';
    spawned.stdout!.on('data', (chunk) => (output += chunk));
    spawned.stderr!.on('data', (chunk) => (output += chunk));
    return new Promise<{ name: string; output: string; code: number; out: string }>((resolve) => spawned.on('close', (code) => resolve({ name, output, code: code ?? 1, out })));
  };
  const perDatabase = workersPerDatabase();
  const workers = Array.from({ length: perDatabase }, (_, n) => child('sqlite', `sqlite, worker ${n + 1}`, queues.sqlite));
  // The MySQL workers start once the template is migrated (the SQLite ones have the cores meanwhile).
  await templateMigrated;
  workers.push(...Array.from({ length: perDatabase }, (_, n) => child('mysql', `mysql, worker ${n + 1}`, queues.mysql)));
  const finished = await Promise.all(workers);
  const quiet = await waitForQuietMachine();
  const timed = await child('sqlite,mysql', 'timed, alone');
  finished.push({ ...timed, output: `${quiet}\n${timed.output}` });
  const server = mysqlServer(process.env.TEST_MYSQL_URL!);
  await server.raw(`DROP DATABASE IF EXISTS \`${template}\``);
  await server.destroy();
  await dropTemplates();

  const sum = { passed: 0, failed: 0, skipped: 0 };
  const times: Timings = {};
  for (const { name, output, out } of finished) {
    process.stdout.write(`\n=== ${name} ===\n${output}`);
    try {
      Object.assign(times, JSON.parse(readFileSync(out, 'utf8')));
    } catch {
      console.log(`(no file times from ${name}: it ended before writing them)`);
    }
    const counts = /^(\d+) passed, (\d+) failed, (\d+) skipped$/m.exec(output);
    if (counts) {
      sum.passed += Number(counts[1]);
      sum.failed += Number(counts[2]);
      sum.skipped += Number(counts[3]);
    } else sum.failed += 1;
  }
  rmSync(timings, { recursive: true, force: true });
  console.log(keepTimings(times, seed));
  if (seed !== undefined) console.log(`files shuffled with seed ${seed}`);
  console.log(`${sum.passed} passed, ${sum.failed} failed, ${sum.skipped} skipped`);
  return finished.every((result) => result.code === 0) && sum.failed === 0 ? 0 : 1;
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
  return () => ({ ...seen, durations });
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
