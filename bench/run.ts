// `npm run bench`: the service under load on a generated data set, each request kind measured
// with autocannon against a server in its own process, after 2 s of warm-up each. Prints req/s, p50/p99 latency and the
// server's peak RSS as a table (and JSON with --json FILE).
//   npm run bench -- [--uoms 10000] [--duration 10] [--connections 50] [--mysql mysql://root@127.0.0.1:3306/bench] [--json out.json] [--only NAME]
// The figures are this machine's; compare against the hand-written baseline in the same run with
// ../shared/bench/project-vs-baseline.sh.
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import knexFactory from 'knex';
import { loadConfig } from '../src/config.ts';
import { createKnex } from '../src/db.ts';
import { migrateLatest } from '../src/migrate.ts';
import { PROJECT_ROOT } from '../src/paths.ts';
import { seed } from '../src/seed/index.ts';

const { values: options } = parseArgs({
  options: {
    uoms: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    mysql: { type: 'string' },
    json: { type: 'string' },
    only: { type: 'string', description: 'run the scenarios whose name contains this' },
  },
});
const PORT = 3918;
const PASSWORD = 'bench-password';
const dir = mkdtempSync(join(tmpdir(), 'erp-bench-'));
const databaseUrl = options.mysql ?? `sqlite:${join(dir, 'bench.sqlite')}`;
const env = { DATABASE_URL: databaseUrl, JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123', PORT: String(PORT), ADMIN_PASSWORD: PASSWORD };
const base = `http://127.0.0.1:${PORT}/admin/api/v1`;

interface Scenario {
  name: string;
  method?: 'GET' | 'POST';
  path: string;
  body?: (n: number) => unknown;
  /** Fewer connections for heavy requests (a 50-line order). */
  connections?: number;
}

async function prepareDatabase(): Promise<void> {
  if (options.mysql) {
    const url = new URL(options.mysql);
    const admin = knexFactory({
      client: 'mysql2',
      connection: { host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) },
    });
    await admin.raw(`DROP DATABASE IF EXISTS \`${url.pathname.slice(1)}\``);
    await admin.raw(`CREATE DATABASE \`${url.pathname.slice(1)}\``);
    await admin.destroy();
  }
  const config = loadConfig(env);
  const knex = createKnex(config.database);
  await migrateLatest(knex);
  await seed(knex, config);
  const now = '2025-01-31 09:30:00.000000';
  const categories = Math.max(1, Math.ceil(Number(options.uoms) / 200));
  const first = Number((await knex('unit_of_measure_categories').max({ m: 'id' }).first())!.m) + 1;
  await knex.batchInsert(
    'unit_of_measure_categories',
    Array.from({ length: categories }, (_, c) => ({ id: first + c, name: `Bench category ${c + 1}`, created_at: now, updated_at: now })),
    200,
  );
  const stems = ['kg', 'gram', 'kg box', 'pound', 'ounce', 'kg bag', 'liter', 'meter'];
  const rows = Array.from({ length: Number(options.uoms) }, (_, i) => ({
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

/** The server runs compiled, as `npm start` runs it (`npm run build` emits dist/bench/serve.js too). */
function startServer(): Promise<ChildProcess> {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
  const child = fork(join(PROJECT_ROOT, 'dist/bench/serve.js'), {
    execArgv: ['--enable-source-maps'], // as npm start runs it
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
}

/** Resident memory of a process (Linux), in MB. */
function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
}

async function call(method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.json()) as any;
}

async function scenarios(token: string): Promise<Scenario[]> {
  const category = (await call('GET', '/support/uom-categories?filter[name]=Bench category 7', token)).data[0].id;
  const uoms = (await call('GET', `/support/uom-categories/${category}/uoms?per_page=1&page=34`, token)).data;
  const product = (await call('POST', '/inventories/products', token, { type: 'goods', name: 'Bench product', price: 10, category_id: 1 })).data.id;
  const partner = (await call('POST', '/partners/partners', token, { account_type: 'company', name: 'Bench customer' })).data.id;
  const lines = (count: number) => Array.from({ length: count }, (_, i) => ({ product_id: product, product_qty: 1 + (i % 5), price_unit: 10 }));
  const order = (count: number) => () => ({ partner_id: partner, payment_term_id: 1, date_order: '2026-11-23', lines: lines(count) });
  for (let i = 0; i < 30; i++) await call('POST', '/sales/orders', token, order(5)());
  bigOrder = order(1000);
  return [
    { name: 'UOM show', path: `/support/uom-categories/${category}/uoms/${uoms[0].id}` },
    { name: 'UOM list', path: `/support/uom-categories/${category}/uoms?filter%5Bname%5D=kg&sort=-name&page=1&per_page=15&include=category` },
    {
      name: 'UOM create',
      method: 'POST',
      path: `/support/uom-categories/${category}/uoms`,
      body: (n) => ({ type: 'bigger', name: `kg bench ${n}`, factor: 1000, rounding: 0.01, category_id: category }),
    },
    { name: 'order create (50 lines)', method: 'POST', path: '/sales/orders', body: order(50), connections: 10 },
    { name: 'order list (lines.product, partner)', path: '/sales/orders?include=lines.product,partner&per_page=15', connections: 20 },
    {
      name: 'receipt create (50 moves)',
      method: 'POST',
      path: '/inventories/receipts',
      body: () => ({ moves: Array.from({ length: 50 }, () => ({ product_id: product, product_uom_qty: 2 })) }),
      connections: 10,
    },
  ];
}

let bigOrder: () => unknown;

/**
 * A request at the bound (a 1,000-line order) sent again and again on one connection, while
 * UOM shows run beside it: how long the big request takes, and whether the others still answer.
 */
async function atTheBound(token: string, pid: number, showPath: string) {
  const durations: number[] = [];
  let running = true;
  const writer = (async () => {
    while (running) {
      const started = performance.now();
      await call('POST', '/sales/orders', token, bigOrder());
      durations.push(performance.now() - started);
    }
  })();
  const others = await measure({ name: 'UOM show beside 1,000-line orders', path: showPath, connections: 10 }, token, pid);
  running = false;
  await writer;
  durations.sort((a, b) => a - b);
  const p50 = Math.round(durations[Math.floor(durations.length / 2)] ?? 0);
  return [
    {
      name: 'order create (1,000 lines), one at a time',
      rps: Math.round((durations.length / Number(options.duration)) * 10) / 10,
      p50,
      p99: Math.round(durations[Math.floor(durations.length * 0.99)] ?? 0),
      max: Math.round(durations.at(-1) ?? 0),
      non2xx: 0,
      rssMB: others.rssMB,
    },
    others,
  ];
}

async function measure(scenario: Scenario, token: string, pid: number) {
  let n = 0;
  const load = (duration: number) =>
    autocannon({
      url: `${base}${scenario.path}`,
      method: scenario.method ?? 'GET',
      connections: scenario.connections ?? Number(options.connections),
      duration,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      requests: scenario.body ? [{ setupRequest: (request: any) => ({ ...request, body: JSON.stringify(scenario.body!(++n)) }) }] : undefined,
    });
  // Not counted: the first answers of a route compile its serializer and warm the JIT.
  await load(2);
  let peak = rssOf(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 200);
  const result = await load(Number(options.duration));
  clearInterval(sampler);
  return {
    name: scenario.name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    rssMB: Math.round(peak),
  };
}

async function main(): Promise<void> {
  await prepareDatabase();
  const server = await startServer();
  try {
    const login = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const results = [];
    const all = await scenarios(token);
    const wanted = (name: string) => !options.only || name.includes(options.only);
    for (const scenario of all.filter((s) => wanted(s.name))) results.push(await measure(scenario, token, server.pid!));
    if (wanted('1,000 lines')) results.push(...(await atTheBound(token, server.pid!, all[0]!.path)));
    console.log(`\n| Request | req/s | p50 ms | p99 ms | max ms | non-2xx | peak RSS MB |\n|---|---:|---:|---:|---:|---:|---:|`);
    for (const r of results) console.log(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.max} | ${r.non2xx} | ${r.rssMB} |`);
    console.log(
      `\n(${options.mysql ? 'MariaDB/MySQL' : 'SQLite'}, ${options.uoms} UOMs, ${options.duration} s per request, ${options.connections} connections unless noted in the code.)`,
    );
    if (options.json) writeFileSync(options.json, `${JSON.stringify({ database: options.mysql ? 'mysql' : 'sqlite', results }, null, 2)}\n`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
