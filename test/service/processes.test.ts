// The service as an operator runs it: real processes (`node src/main.ts`). Three processes
// starting together on a fresh MySQL/MariaDB database seed it once; SIGTERM lets a request in
// flight finish and exits 0.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import knexFactory from 'knex';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseDatabaseUrl } from '../../src/config.ts';
import { createKnex } from '../../src/db.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECRET = 'processes-secret-processes-secret-0123456';

interface Running {
  child: ChildProcess;
  baseUrl: string;
  exited: Promise<number>;
}

/** Starts `node src/main.ts` and waits for its "listening" line. */
function start(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', JWT_SECRET: SECRET, ADMIN_PASSWORD: 'processes-password', RATE_LIMIT_MAX: '100000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 90 s:\n${output}`)), 90_000);
    child.stdout!.on('data', (chunk) => {
      output += String(chunk);
      const match = /listening on (http:\/\/[^/\s]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, baseUrl: match[1]!, exited });
      }
    });
    child.stderr!.on('data', (chunk) => (output += String(chunk)));
    void exited.then((code) => reject(new Error(`exited with ${code} before listening:\n${output}`)));
  });
}

async function login(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/admin/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password: 'processes-password' }),
  });
  return ((await response.json()) as { token: string }).token;
}

const test = suite('processes');
const dirs: string[] = [];

test.after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test('SIGTERM lets the request in flight finish, then the process exits 0', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'erp-shutdown-'));
  dirs.push(dir);
  const running = await start({ DATABASE_URL: `sqlite:${join(dir, 'erp.sqlite')}` });
  const token = await login(running.baseUrl);
  const lines = Array.from({ length: 1000 }, (_, i) => ({ product_id: 1, product_qty: 1 + (i % 5), price_unit: 10 }));
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const product = await fetch(`${running.baseUrl}/admin/api/v1/products/products`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ type: 'goods', name: 'Shutdown', price: 1, category_id: 1 }),
  });
  const productId = ((await product.json()) as { data: { id: number } }).data.id;
  const partner = await fetch(`${running.baseUrl}/admin/api/v1/partners/partners`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ account_type: 'company', name: 'Shutdown customer' }),
  });
  const partnerId = ((await partner.json()) as { data: { id: number } }).data.id;
  const inFlight = fetch(`${running.baseUrl}/admin/api/v1/sales/orders`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ partner_id: partnerId, payment_term_id: 1, date_order: '2026-11-23', lines: lines.map((line) => ({ ...line, product_id: productId })) }),
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  running.child.kill('SIGTERM');
  const response = await inFlight;
  assert.is(response.status, 201, 'the request in flight completed');
  assert.is(await running.exited, 0);
  const knex = createKnex({ client: 'sqlite', filename: join(dir, 'erp.sqlite') });
  assert.is(Number((await knex('sales_order_lines').count({ n: '*' }).first())!.n), 1000, 'and its lines were all written');
  await knex.destroy();
});

const mysqlUrl = process.env.TEST_MYSQL_DATABASE_URL;
if (mysqlUrl) {
  test('three processes starting together on a fresh database seed it once', async () => {
    const config = parseDatabaseUrl(mysqlUrl);
    if (config.client !== 'mysql') return;
    const admin = knexFactory({ client: 'mysql2', connection: { host: config.host, port: config.port, user: config.user, password: config.password } });
    const name = `${config.database}_boot`;
    await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.raw(`CREATE DATABASE \`${name}\``);
    const url = new URL(mysqlUrl);
    url.pathname = `/${name}`;
    const processes = await Promise.all([1, 2, 3].map(() => start({ DATABASE_URL: url.toString() })));
    try {
      const db = knexFactory({ client: 'mysql2', connection: { host: config.host, port: config.port, user: config.user, password: config.password, database: name } });
      assert.equal(await db('users').pluck('email'), ['admin@example.com'], 'one administrator');
      assert.is(Number((await db('companies').count({ n: '*' }).first())!.n), 1, 'one company');
      for (const [table, column] of [
        ['currencies', 'name'],
        ['countries', 'code'],
        ['unit_of_measure_categories', 'name'],
        ['permissions', 'name'],
        ['inventories_locations', 'full_name'],
        ['inventories_operation_types', 'name'],
      ] as const) {
        const doubles = await db(table).select(column).count({ n: '*' }).groupBy(column).havingRaw('COUNT(*) > 1');
        assert.equal(doubles, [], `no ${table} twice`);
      }
      await db.destroy();
      for (const running of processes) assert.is((await fetch(`${running.baseUrl}/health`)).status, 200);
    } finally {
      for (const running of processes) running.child.kill('SIGTERM');
      for (const running of processes) assert.is(await running.exited, 0);
      await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.destroy();
    }
  });
}

test.run();
