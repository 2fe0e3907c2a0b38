// What the benchmarks share: a generated data set (10,000 UOMs by default, on SQLite or a
// MySQL/MariaDB database created for the run), the compiled server in its own process (as
// `npm start` runs it), and autocannon's measure of one request kind against one or more servers.
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import knexFactory from 'knex';
import { loadConfig } from '../src/app/config.ts';
import { createKnex } from '../src/database/connection.ts';
import { migrateLatest } from '../src/database/migrations.ts';
import { PROJECT_ROOT } from '../src/app/paths.ts';
import { seed } from '../src/seed/index.ts';

export const BENCH_PASSWORD = 'bench-password';
export const BENCH_SECRET = 'bench-secret-bench-secret-bench-secret-0123';

export interface Scenario {
  name: string;
  method?: 'GET' | 'POST';
  path: string;
  body?: (n: number) => unknown;
  /** Fewer connections for heavy requests (a 50-line order). */
  connections?: number;
  /** The n-th request's path, when each goes to a record of its own (confirming the n-th prepared order). */
  pathFor?: (n: number) => string;
  /** Send this many requests (and a tenth of it to warm up) instead of running for the duration: records prepared for one request each. */
  amount?: number;
  /** Requests a second over all connections (autocannon's overallRate), instead of each connection sending its next as soon as it has its answer. */
  rate?: number;
}

/** A fresh database (MySQL: dropped and created again), migrated, seeded, with `uoms` UOMs in categories of 200. */
export async function prepareBenchDatabase(databaseUrl: string, uoms: number): Promise<void> {
  if (databaseUrl.startsWith('mysql:')) {
    const url = new URL(databaseUrl);
    const admin = knexFactory({
      client: 'mysql2',
      connection: { host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) },
    });
    await admin.raw(`DROP DATABASE IF EXISTS \`${url.pathname.slice(1)}\``);
    await admin.raw(`CREATE DATABASE \`${url.pathname.slice(1)}\``);
    await admin.destroy();
  }
  const config = loadConfig({ DATABASE_URL: databaseUrl, JWT_SECRET: BENCH_SECRET, ADMIN_PASSWORD: BENCH_PASSWORD });
  const knex = createKnex(config.database);
  await migrateLatest(knex);
  await seed(knex, config);
  const now = '2025-01-31 09:30:00.000000';
  const categories = Math.max(1, Math.ceil(uoms / 200));
  const first = Number((await knex('unit_of_measure_categories').max({ m: 'id' }).first())!.m) + 1;
  await knex.batchInsert(
    'unit_of_measure_categories',
    Array.from({ length: categories }, (_, c) => ({ id: first + c, name: `Bench category ${c + 1}`, created_at: now, updated_at: now })),
    200,
  );
  const stems = ['kg', 'gram', 'kg box', 'pound', 'ounce', 'kg bag', 'liter', 'meter'];
  const rows = Array.from({ length: uoms }, (_, i) => ({
    type: ['reference', 'bigger', 'smaller'][i % 3],
    name: `${stems[i % stems.length]} ${String(i + 1).padStart(6, '0')}`,
    factor: (i % 50) + 1,
    rounding: 0.01,
    category_id: first + Math.floor(i / 200),
    creator_id: 1,
    created_at: now,
    updated_at: now,
  }));
  await knex.batchInsert('unit_of_measures', rows, 500);
  await knex.destroy();
}

let built: string | undefined;

/** The node flags of package.json's `start` script (`--enable-source-maps`, the heap flags), so that the bench measures the server as `npm start` runs it. */
function startFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return scripts.start.split(/\s+/).filter((word) => word.startsWith('--'));
}

/** The compiled server (`npm run build` emits dist/<hash>/bench/serve.js too, and prints that folder) on `env`, once it listens. */
export function startBenchServer(env: Record<string, string>): Promise<ChildProcess> {
  built ??= execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: PROJECT_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  const child = fork(join(PROJECT_ROOT, built, 'bench/serve.js'), {
    execArgv: startFlags(), // as npm start runs it
    env: { ...process.env, JWT_SECRET: BENCH_SECRET, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
}

export async function stopBenchServer(server: ChildProcess): Promise<void> {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
}

/** Resident memory of a process (Linux), in MB. */
export function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
}

export async function benchLogin(base: string): Promise<string> {
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password: BENCH_PASSWORD }),
  });
  return ((await login.json()) as { token: string }).token;
}

export async function benchCall(base: string, method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.json()) as any;
}

/** One request's time, and its status. */
export interface Timed {
  ms: number;
  status: number;
}

/** A GET timed until its whole body has arrived. */
export async function timedGet(url: string, token: string): Promise<Timed> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

/**
 * A row of a table from timed requests over `seconds`: req/s, p50, p99 and max. `answeredOnly`:
 * only the 2xx answers count and are timed (a 503 of load shedding answers at once, and is
 * counted in non-2xx); else every request, its time to whatever answer.
 */
export function timedRow(name: string, timed: Timed[], seconds: number, rssMB: number, { answeredOnly = false } = {}): Measured {
  const counted = answeredOnly ? timed.filter((t) => t.status >= 200 && t.status < 300) : timed;
  const ms = counted.map((t) => t.ms).sort((a, b) => a - b);
  return {
    name,
    rps: Math.round((counted.length / seconds) * 100) / 100,
    p50: Math.round(ms[Math.floor(ms.length / 2)] ?? 0),
    p99: Math.round(ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))] ?? 0),
    max: Math.round(ms.at(-1) ?? 0),
    non2xx: timed.filter((t) => t.status < 200 || t.status >= 300).length,
    rssMB: Math.round(rssMB),
  };
}

export interface Measured {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  /** Requests that got no answer: autocannon's errors, its timeouts (10 s) among them. Their latency is in no percentile. */
  errors?: number;
  rssMB: number;
}

/**
 * The scenario against every base URL at once (its connections shared among them), after 2 s of
 * warm-up. req/s is the sum; p50 and p99 are the highest of the servers' (the slowest one's), and
 * the peak RSS is the largest of the `pids`.
 */
export async function measure(scenario: Scenario, bases: string[], token: string, pids: number[], options: { duration: number; connections: number }): Promise<Measured> {
  let n = 0;
  const connections = scenario.connections ?? options.connections;
  const perRequest = scenario.body || scenario.pathFor;
  const load = (duration: number, amount?: number) =>
    Promise.all(
      bases.map((base, i) => {
        const baseConnections = Math.max(1, Math.floor(connections / bases.length) + (i < connections % bases.length ? 1 : 0));
        return autocannon({
          url: `${base}${scenario.path}`,
          method: scenario.method ?? 'GET',
          connections: baseConnections,
          duration,
          ...(scenario.rate !== undefined && { overallRate: Math.max(1, Math.round(scenario.rate / bases.length)) }),
          ...(amount !== undefined && { amount: Math.max(baseConnections, Math.round(amount / bases.length)) }),
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          requests: perRequest
            ? [
                {
                  setupRequest: (request: any) => {
                    n++;
                    return {
                      ...request,
                      ...(scenario.pathFor && { path: `${new URL(base).pathname}${scenario.pathFor(n)}` }),
                      ...(scenario.body && { body: JSON.stringify(scenario.body(n)) }),
                    };
                  },
                },
              ]
            : undefined,
        });
      }),
    );
  // Not counted: the first answers of a route compile its serializer and warm the JIT.
  await load(2, scenario.amount && Math.ceil(scenario.amount / 10));
  const peakOf = () => Math.max(...pids.map(rssOf));
  let peak = peakOf();
  const sampler = setInterval(() => (peak = Math.max(peak, peakOf())), 200);
  const results = await load(options.duration, scenario.amount);
  clearInterval(sampler);
  return {
    name: scenario.name,
    rps: Math.round(results.reduce((sum, result) => sum + result.requests.average, 0)),
    p50: Math.max(...results.map((result) => result.latency.p50)),
    p99: Math.max(...results.map((result) => result.latency.p99)),
    max: Math.max(...results.map((result) => result.latency.max)),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
    rssMB: Math.round(peak),
  };
}

/**
 * The UOM show and list of a bench data set's category 7, and creates in category 8: a later
 * list (another setup's, on the same data) then reads the same rows.
 */
export async function uomScenarios(base: string, token: string): Promise<Scenario[]> {
  const categoryNamed = async (name: string) => (await benchCall(base, 'GET', `/support/uom-categories?filter[name]=${name}`, token)).data[0].id;
  const category = await categoryNamed('Bench category 7');
  const createIn = await categoryNamed('Bench category 8');
  const uoms = (await benchCall(base, 'GET', `/support/uom-categories/${category}/uoms?per_page=1&page=34`, token)).data;
  return [
    { name: 'UOM show', path: `/support/uom-categories/${category}/uoms/${uoms[0].id}` },
    { name: 'UOM list', path: `/support/uom-categories/${category}/uoms?filter%5Bname%5D=kg&sort=-name&page=1&per_page=15&include=category` },
    {
      name: 'UOM create',
      method: 'POST',
      path: `/support/uom-categories/${createIn}/uoms`,
      body: (n) => ({ type: 'bigger', name: `kg bench ${n} ${Math.random().toString(36).slice(2, 8)}`, factor: 1000, rounding: 0.01, category_id: createIn }),
    },
  ];
}

/** A markdown table of measures. */
export function printTable(results: Measured[]): void {
  console.log(`\n| Request | req/s | p50 ms | p99 ms | max ms | non-2xx | peak RSS MB |\n|---|---:|---:|---:|---:|---:|---:|`);
  for (const r of results) console.log(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.max} | ${r.non2xx}${r.errors ? ` (+ ${r.errors} unanswered)` : ''} | ${r.rssMB} |`);
}
