// The service as an operator runs it: real processes (`node src/main.ts`) sharing one database.
// Processes starting together prepare the database once; with MIGRATE_ON_START=false they wait for
// the release step (`npm run erp -- migrate`); SIGTERM lets a request in flight finish and exits 0.
// On MySQL/MariaDB, two processes with one If-Match or one Idempotency-Key decide as one would.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import knexFactory, { type Knex } from 'knex';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseDatabaseUrl } from '../../src/app/config.ts';
import { createKnex } from '../../src/database/connection.ts';
import { call, loginTo, PROCESS_ADMIN, PROCESS_SECRET, startService, statusCounts, type ServiceProcess } from '../helpers/service-process.ts';
import { inThisRun } from '../helpers/targets.ts';
import { builtEntry } from '../helpers/built.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const API = '/admin/api/v1';

const test = suite('processes');
const dirs: string[] = [];

test.after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function sqliteFile(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `erp-${name}-`));
  dirs.push(dir);
  return join(dir, 'erp.sqlite');
}

/** `npm run erp -- <args>` on the given database. */
async function erp(args: string[], databaseUrl: string) {
  return promisify(execFile)(process.execPath, [await builtEntry('src/cli/index.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, JWT_SECRET: PROCESS_SECRET, ADMIN_PASSWORD: PROCESS_ADMIN.password },
  });
}

async function expectOnce(db: Knex): Promise<void> {
  assert.equal(await db('users').pluck('email'), ['admin@example.com'], 'one administrator');
  assert.is(Number((await db('companies').count({ n: '*' }).first())!.n), 1, 'one company');
  assert.is(Number((await db('knex_migrations_lock').count({ n: '*' }).first())!.n), 1, "knex's lock table holds one row");
  for (const [table, column] of [
    ['currencies', 'name'],
    ['countries', 'code'],
    ['unit_of_measure_categories', 'name'],
    ['permissions', 'name'],
    ['inventories_locations', 'full_name'],
    ['inventories_operation_types', 'name'],
    ['knex_migrations', 'name'],
  ] as const) {
    const doubles = await db(table).select(column).count({ n: '*' }).groupBy(column).havingRaw('COUNT(*) > 1');
    assert.equal(doubles, [], `no ${table} twice`);
  }
}

// On SQLite files, unless this run is the MySQL half of one on both databases (test/run.ts).
if (inThisRun('sqlite')) {
  test('SIGTERM lets the request in flight finish, then the process exits 0', async () => {
    const file = sqliteFile('shutdown');
    const running = await startService({ DATABASE_URL: `sqlite:${file}` });
    const token = await loginTo(running.baseUrl);
    const lines = Array.from({ length: 1000 }, (_, i) => ({ product_id: 1, product_qty: 1 + (i % 5), price_unit: 10 }));
    const product = await call(running.baseUrl, 'POST', `${API}/products/products`, { token, body: { type: 'goods', name: 'Shutdown', price: 1, category_id: 1 } });
    const partner = await call(running.baseUrl, 'POST', `${API}/partners/partners`, { token, body: { account_type: 'company', name: 'Shutdown customer' } });
    const inFlight = call(running.baseUrl, 'POST', `${API}/sales/orders`, {
      token,
      body: { partner_id: partner.body.data.id, payment_term_id: 1, date_order: '2026-11-23', lines: lines.map((line) => ({ ...line, product_id: product.body.data.id })) },
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    running.child.kill('SIGTERM');
    assert.is((await inFlight).status, 201, 'the request in flight completed');
    assert.is(await running.exited, 0, running.output());
    const knex = createKnex({ client: 'sqlite', filename: file });
    assert.is(Number((await knex('sales_order_lines').count({ n: '*' }).first())!.n), 1000, 'and its lines were all written');
    await knex.destroy();
  });

  test('three processes starting together on a fresh SQLite file prepare it once, and all serve', async () => {
    const file = sqliteFile('together');
    const processes = await Promise.all([1, 2, 3].map(() => startService({ DATABASE_URL: `sqlite:${file}` })));
    try {
      const knex = createKnex({ client: 'sqlite', filename: file });
      await expectOnce(knex);
      await knex.destroy();
      for (const running of processes) assert.is((await call(running.baseUrl, 'GET', '/health')).status, 200);
    } finally {
      for (const running of processes) assert.is(await running.stop(), 0);
    }
  });

  test('MIGRATE_ON_START=false: a process waits for the release step, then serves', async () => {
    const file = sqliteFile('release');
    const waiting = startService({ DATABASE_URL: `sqlite:${file}`, MIGRATE_ON_START: 'false' });
    let listening = false;
    void waiting.then(() => (listening = true)).catch(() => {});
    try {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      assert.not.ok(listening, 'it does not serve an unprepared database');
      const release = await erp(['migrate'], `sqlite:${file}`);
      assert.match(release.stdout, /^Applied \d+ migration\(s\):/);
      const running = await waiting;
      assert.is((await call(running.baseUrl, 'GET', '/health')).status, 200);
      await loginTo(running.baseUrl);
      assert.is(await running.stop(), 0);
    } finally {
      // However the test ends: after a failed release step the process may still start listening
      // (the migrations applied, the seed not), and would outlive the run.
      await waiting.then(
        (running) => running.stop(),
        () => undefined,
      );
    }
  });

  test('MIGRATE_ON_START=false without the release step: the process gives up with a message saying what to run', async () => {
    const file = sqliteFile('no-release');
    const error = await startService({ DATABASE_URL: `sqlite:${file}`, MIGRATE_ON_START: 'false', STARTUP_WAIT: '2' }).then(
      () => undefined,
      (reason: Error) => reason,
    );
    assert.ok(error, 'it did not start');
    assert.match(error!.message, /exited with 1/);
    assert.match(error!.message, /run the release step, npm run erp -- migrate/);
  });
}

const mysqlUrl = process.env.TEST_MYSQL_DATABASE_URL;
if (mysqlUrl) {
  const config = parseDatabaseUrl(mysqlUrl);
  if (config.client !== 'mysql') throw new Error('TEST_MYSQL_DATABASE_URL is a mysql:// URL');
  const server = { host: config.host, port: config.port, user: config.user, password: config.password };
  let admin: Knex;
  let url: string;
  let name: string;
  let processes: ServiceProcess[] = [];
  let tokens: string[] = [];

  test('three processes starting together on a fresh MySQL/MariaDB database prepare it once; a restart starts normally', async () => {
    admin = knexFactory({ client: 'mysql2', connection: server });
    name = `${config.database}_boot`;
    await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.raw(`CREATE DATABASE \`${name}\``);
    const target = new URL(mysqlUrl);
    target.pathname = `/${name}`;
    url = target.toString();
    processes = await Promise.all([1, 2, 3].map(() => startService({ DATABASE_URL: url })));
    const db = knexFactory({ client: 'mysql2', connection: { ...server, database: name } });
    await expectOnce(db);
    await db.destroy();
    for (const running of processes) assert.is((await call(running.baseUrl, 'GET', '/health')).status, 200);
    assert.is(await processes[2]!.stop(), 0);
    processes[2] = await startService({ DATABASE_URL: url });
    tokens = await Promise.all(processes.map((running) => loginTo(running.baseUrl)));
  });

  test('two PUTs with the same If-Match through two processes at once, 20 times: one 200 and one 412 each time', async () => {
    const created = await call(processes[0]!.baseUrl, 'POST', `${API}/inventories/tags`, { token: tokens[0], body: { name: 'If-Match processes' } });
    assert.is(created.status, 201, JSON.stringify(created.body));
    const path = `${API}/inventories/tags/${created.body.data.id}`;
    for (let round = 0; round < 20; round++) {
      const etag = (await call(processes[0]!.baseUrl, 'GET', path, { token: tokens[0] })).headers.etag as string;
      const names = [`first ${round}`, `second ${round}`];
      const answers = await Promise.all(names.map((tag, i) => call(processes[i]!.baseUrl, 'PUT', path, { token: tokens[i], body: { name: tag }, headers: { 'if-match': etag } })));
      assert.equal(answers.map((answer) => answer.status).sort(), [200, 412], `round ${round}: ${answers.map((a) => `${a.status} ${JSON.stringify(a.body)}`).join(' | ')}`);
      const winner = names[answers.findIndex((answer) => answer.status === 200)];
      assert.is((await call(processes[1]!.baseUrl, 'GET', path, { token: tokens[1] })).body.data.name, winner, 'the stored name is the winner');
    }
  });

  test('one Idempotency-Key sent to two processes at once: one record, the same answer twice', async () => {
    for (let round = 0; round < 5; round++) {
      const body = { name: `Idempotent processes tag ${round}` };
      const answers = await Promise.all(
        [0, 1].map((i) => call(processes[i]!.baseUrl, 'POST', `${API}/inventories/tags`, { token: tokens[0], body, headers: { 'idempotency-key': `processes-${round}` } })),
      );
      assert.equal(statusCounts(answers), { 201: 2 }, answers.map((a) => JSON.stringify(a.body)).join(' | '));
      assert.is(answers[0]!.body.data.id, answers[1]!.body.data.id, 'the same record');
      const db = knexFactory({ client: 'mysql2', connection: { ...server, database: name } });
      assert.is(Number((await db('inventories_tags').where('name', body.name).count({ n: '*' }).first())!.n), 1, 'written once');
      await db.destroy();
    }
  });

  test('invoices confirmed through three processes at once take consecutive numbers: none twice, no gap', async () => {
    const db = knexFactory({ client: 'mysql2', connection: { ...server, database: name } });
    const category = await db('products_categories').orderBy('id').first('id');
    const partner = await db('partners_partners').orderBy('id').first('id');
    const company = await db('companies').orderBy('id').first('currency_id');
    await db.destroy();
    const made = await call(processes[0]!.baseUrl, 'POST', `${API}/products/products`, {
      token: tokens[0],
      body: { type: 'service', name: 'Numbered service', price: 10, category_id: category.id },
    });
    assert.is(made.status, 201, JSON.stringify(made.body));
    const product = made.body.data;
    const drafts: number[] = [];
    for (let i = 0; i < 24; i++) {
      const created = await call(processes[0]!.baseUrl, 'POST', `${API}/accounts/invoices`, {
        token: tokens[0],
        body: {
          partner_id: partner.id,
          currency_id: company.currency_id,
          invoice_date: '2026-11-26',
          invoice_date_due: '2026-12-26',
          invoice_lines: [{ product_id: product.id, uom_id: product.uom_id, quantity: 1, price_unit: 10 + i }],
        },
      });
      assert.is(created.status, 201, JSON.stringify(created.body));
      drafts.push(created.body.data.id);
    }
    const answers = await Promise.all(drafts.map((id, i) => call(processes[i % 3]!.baseUrl, 'POST', `${API}/accounts/invoices/${id}/confirm`, { token: tokens[i % 3] })));
    assert.equal(statusCounts(answers), { 200: 24 }, answers.map((a) => JSON.stringify(a.body)).join(' | '));
    const numbers = answers.map((answer) => Number(answer.body.data.name.split('/')[2])).sort((a, b) => a - b);
    assert.equal(
      numbers,
      Array.from({ length: 24 }, (_, i) => i + 1),
    );
  });

  test('the MySQL processes stop cleanly', async () => {
    for (const running of processes) assert.is(await running.stop(), 0);
    await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.destroy();
  });
}

test.run();
