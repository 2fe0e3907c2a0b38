// The operators' command line and `npm start`, run as a user would: as child processes on a
// SQLite file in a temporary directory.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyPassword } from '../../src/auth/passwords.ts';
import { createKnex } from '../../src/database/connection.ts';
import { Client } from '../helpers/http.ts';
import { builtEntry } from '../helpers/built.ts';
import { reapOnExit } from '../helpers/reaped.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The node options `npm start` runs the compiled service with (package.json), so that the tests run it the same way. */
const START_NODE_OPTIONS = /\bnode ((?:--\S+ )*)scripts\/start\.mjs/
  .exec(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start)![1]!
  .trim()
  .split(' ');
const CONFIG_VARIABLES = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'JWT_SECRET',
  'TOKEN_TTL',
  'ADMIN_EMAIL',
  'ADMIN_NAME',
  'ADMIN_PASSWORD',
  'RATE_LIMIT_MAX',
  'RATE_LIMIT_WINDOW',
  'LOGIN_RATE_LIMIT_MAX',
  'LOG_LEVEL',
  'TRUST_PROXY',
  'REDIS_URL',
];
const STARTUP_TIMEOUT_MS = 60_000;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let dir: string;
let dbFile: string;

/** The process environment without any setting of ours, plus the database and `extra`. */
function environment(extra: Record<string, string> = {}, file = dbFile): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of CONFIG_VARIABLES) delete env[name];
  return { ...env, DATABASE_URL: `sqlite:${file}`, ...extra };
}

/** `npm run erp -- <args>`. */
async function erp(args: string[], extra: Record<string, string> = {}, file = dbFile): Promise<Run> {
  const entry = await builtEntry('src/cli/index.ts');
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [entry, ...args], { cwd: ROOT, env: environment(extra, file), timeout: STARTUP_TIMEOUT_MS }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
    });
  });
}

async function withDatabase<T>(work: (knex: Knex) => Promise<T>, file = dbFile): Promise<T> {
  const knex = createKnex({ client: 'sqlite', filename: file });
  try {
    return await work(knex);
  } finally {
    await knex.destroy();
  }
}

const cli = suite('cli');

cli.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'erp-cli-'));
  dbFile = join(dir, 'erp.sqlite');
});

cli.after(() => {
  rmSync(dir, { recursive: true, force: true });
});

cli('migrate (the release step) applies the migrations and seeds, then has nothing to do', async () => {
  const first = await erp(['migrate']);
  assert.is(first.code, 0, first.stderr);
  assert.match(first.stdout, /^Applied \d+ migration\(s\):/);
  assert.match(first.stdout, /create_users_and_tokens/);
  assert.match(first.stdout, /^Seeded: .*\b1 users\b/m);
  assert.match(first.stdout, /^Administrator created: admin@example\.com \/ \S+ {2}\(shown once\)$/m);
  assert.ok(existsSync(dbFile), 'the database file is created');
  const second = await erp(['migrate']);
  assert.is(second.code, 0, second.stderr);
  assert.is(second.stdout.trim(), 'Nothing to migrate.');
});

cli('seed prints what it added and the generated password, which logs in', async () => {
  const file = join(dir, 'seeded.sqlite');
  const run = await erp(['seed'], {}, file);
  assert.is(run.code, 0, run.stderr);
  const seeded = /^Seeded: (.*)\.$/m.exec(run.stdout);
  assert.ok(seeded, run.stdout);
  for (const what of ['users', 'currencies', 'countries', 'states', 'companies', 'uoms']) assert.match(seeded![1]!, new RegExp(`\\b[1-9]\\d* ${what}\\b`));
  const admin = /^Administrator created: admin@example\.com \/ (\S+) {2}\(shown once\)$/m.exec(run.stdout);
  assert.ok(admin, run.stdout);
  const hash = await withDatabase(async (knex) => (await knex('users').where('email', 'admin@example.com').first('password')).password as string, file);
  assert.ok(await verifyPassword(admin![1]!, hash), 'the printed password is the stored one');
});

cli('seed a second time adds nothing and shows no password', async () => {
  const counts = () =>
    withDatabase(async (knex) => Promise.all(['users', 'currencies', 'countries', 'states', 'companies'].map(async (t) => Number((await knex(t).count({ n: '*' }).first())!.n))));
  const before = await counts();
  const run = await erp(['seed']);
  assert.is(run.code, 0, run.stderr);
  assert.is(run.stdout.trim(), 'Nothing to seed: the reference data is already there.');
  assert.not.match(run.stdout, /Administrator created/);
  assert.equal(await counts(), before);
});

cli('seed --demo adds partners, products, priced orders and receipts once', async () => {
  const run = await erp(['seed', '--demo']);
  assert.is(run.code, 0, run.stderr);
  assert.match(run.stdout, /Demo data: 4 partners with addresses, 5 products, 3 sales orders, 2 receipts\./);
  const orders = await withDatabase((knex) => knex('sales_orders').orderBy('id').select('name', 'amount_untaxed', 'amount_total'));
  assert.is(orders.length, 3);
  assert.is(orders[0].name, 'S00001');
  assert.ok(Number(orders[0].amount_total) > Number(orders[0].amount_untaxed), 'the demo orders are taxed');
  const receipts = await withDatabase((knex) => knex('inventories_operations').pluck('name'));
  assert.equal(receipts, ['WH/IN/00001', 'WH/IN/00002']);
  const again = await erp(['seed', '--demo']);
  assert.match(again.stdout, /Demo data: already there\./);
  assert.is((await withDatabase((knex) => knex('sales_orders').count({ n: '*' }).first()))!.n, 3);
});

cli('user:create creates a user whose password is stored as a bcrypt hash', async () => {
  const run = await erp(['user:create', '--email', 'Jane.Doe@Example.com', '--name', 'Jane Doe', '--password', 'jane-password']);
  assert.is(run.code, 0, run.stderr);
  assert.match(run.stdout, /^User \d+ created: jane\.doe@example\.com with no role \(it may do nothing until given one\)$/m);
  assert.not.match(run.stdout, /jane-password/);
  const user = await withDatabase((knex) => knex('users').where('email', 'jane.doe@example.com').first('name', 'password'));
  assert.ok(user, 'the user is stored, with the e-mail in lower case');
  assert.is(user.name, 'Jane Doe');
  assert.match(user.password, /^\$2[aby]\$/);
  assert.ok(await verifyPassword('jane-password', user.password));
});

cli('user:create without --password prints a generated one', async () => {
  const run = await erp(['user:create', '--email', 'sam@example.com', '--name', 'Sam']);
  assert.is(run.code, 0, run.stderr);
  const created = /^User \d+ created: sam@example\.com \/ (\S+) {2}\(shown once\) with no role/m.exec(run.stdout);
  assert.ok(created, run.stdout);
  const user = await withDatabase((knex) => knex('users').where('email', 'sam@example.com').first('password'));
  assert.ok(await verifyPassword(created![1]!, user.password));
});

cli('user:create --role gives the roles named; an unknown role fails and creates nobody', async () => {
  const run = await erp(['user:create', '--email', 'clerk@example.com', '--name', 'Clerk', '--password', 'clerk-password', '--role', 'Admin']);
  assert.is(run.code, 0, run.stderr);
  assert.match(run.stdout, /created: clerk@example\.com with role Admin$/m);
  const roles = await withDatabase((knex) =>
    knex('user_roles')
      .join('users', 'users.id', 'user_roles.user_id')
      .join('roles', 'roles.id', 'user_roles.role_id')
      .where('users.email', 'clerk@example.com')
      .pluck('roles.name'),
  );
  assert.equal(roles, ['Admin']);
  const unknown = await erp(['user:create', '--email', 'ghost@example.com', '--name', 'Ghost', '--role', 'Nobody']);
  assert.is(unknown.code, 1);
  assert.is(unknown.stderr.trim(), 'No role is named "Nobody" (npm run erp -- role:list shows them).');
  assert.equal(await withDatabase((knex) => knex('users').where('email', 'ghost@example.com').pluck('id')), []);
});

cli('user:create on an installation without users makes that first user an Admin', async () => {
  const fresh = join(dir, 'first-user.sqlite');
  const run = await erp(['user:create', '--email', 'first@example.com', '--name', 'First', '--password', 'first-password'], {}, fresh);
  assert.is(run.code, 0, run.stderr);
  assert.match(run.stdout, /^User 1 created: first@example\.com with role Admin$/m);
  const second = await erp(['user:create', '--email', 'second@example.com', '--name', 'Second', '--password', 'second-password'], {}, fresh);
  assert.match(second.stdout, /with no role/);
});

cli('role:list shows each role with its permission and user counts', async () => {
  const run = await erp(['role:list']);
  assert.is(run.code, 0, run.stderr);
  const permissions = await withDatabase(async (knex) => Number((await knex('permissions').count({ n: '*' }).first())!.n));
  assert.ok(permissions > 100, 'every permission of the registry exists');
  assert.match(run.stdout, new RegExp(`^\\s+1  Admin  \\(${permissions} permissions, \\d+ users\\)$`, 'm'));
});

cli('user:create with an e-mail already used fails with a clear message', async () => {
  const count = () => withDatabase(async (knex) => Number((await knex('users').count({ n: '*' }).first())!.n));
  const before = await count();
  const run = await erp(['user:create', '--email', 'JANE.DOE@example.com', '--name', 'Other Jane', '--password', 'other-password']);
  assert.is(run.code, 1);
  assert.is(run.stderr.trim(), 'A user with the e-mail jane.doe@example.com already exists.');
  assert.is(run.stdout, '');
  assert.is(await count(), before);
});

cli('user:create without --email fails with a usage message', async () => {
  const run = await erp(['user:create', '--name', 'Nobody', '--password', 'some-password']);
  assert.is(run.code, 2);
  assert.match(run.stderr, /needs --email and --name/);
  assert.match(run.stderr, /Usage: npm run erp -- user:create --email E --name N \[--password P\] \[--role NAME ...\]/);
});

cli('user:create refuses what the login would refuse', async () => {
  const notEmail = await erp(['user:create', '--email', 'nope', '--name', 'Nobody']);
  assert.is(notEmail.code, 2);
  assert.match(notEmail.stderr, /--email is not an e-mail address: "nope"/);
  const shortPassword = await erp(['user:create', '--email', 'short@example.com', '--name', 'Shorty', '--password', 'short']);
  assert.is(shortPassword.code, 2);
  assert.match(shortPassword.stderr, /at least 8 characters/);
  const stored = await withDatabase((knex) => knex('users').whereIn('email', ['nope', 'short@example.com']).pluck('email'));
  assert.equal(stored, []);
});

cli('user:create with a mistyped option names it, without a stack trace', async () => {
  const run = await erp(['user:create', '--email', 'typo@example.com', '--name', 'Typo', '--pasword', 'typo-password']);
  assert.is(run.code, 2);
  assert.match(run.stderr, /Unknown option '--pasword'/);
  assert.match(run.stderr, /Usage: npm run erp -- user:create/);
  assert.not.match(run.stderr, /\n\s+at /, 'no stack trace');
});

cli('check --database checks the definitions against the migrated schema', async () => {
  const run = await erp(['check', '--database']);
  assert.is(run.code, 0, run.stderr);
  assert.match(run.stdout, /Every stored field has its column in the database/);
  await withDatabase((knex) => knex.schema.alterTable('banks', (t) => t.dropColumn('city')));
  const broken = await erp(['check', '--database']);
  assert.is(broken.code, 1);
  assert.match(broken.stderr, /banks\.yaml: fields\.city: no column "city" in banks/);
});

cli('check says the definitions are valid', async () => {
  const run = await erp(['check']);
  assert.is(run.code, 0, run.stderr);
  assert.match(run.stdout.trim(), /^\d+ resource definitions are valid\.$/);
});

cli('routes lists the generated routes', async () => {
  const run = await erp(['routes']);
  assert.is(run.code, 0, run.stderr);
  const lines = run.stdout.trim().split('\n');
  assert.ok(lines.includes('GET     /admin/api/v1/support/banks  (support/banks list)'), run.stdout);
  assert.ok(lines.includes('DELETE  /admin/api/v1/support/banks/{id}/force  (support/banks forceDelete)'), run.stdout);
  assert.ok(lines.includes('GET     /admin/api/v1/support/currencies/{currency_id}/rates  (support/currency-rates list)'), run.stdout);
  assert.not.ok(
    lines.some((line) => line.startsWith('POST    /admin/api/v1/support/currencies  ')),
    'currencies are read-only',
  );
});

cli('export writes a resource through the export pipeline; a progress line, not frames, when stderr is not a terminal', async () => {
  const output = join(dir, 'uoms.csv');
  const run = await erp(['export', 'support/uoms', '--output', output, '--fields', 'id,name,category', '--sort=-id']);
  assert.is(run.code, 0, run.stderr);
  const uoms = await withDatabase((knex) =>
    knex('unit_of_measures')
      .join('unit_of_measure_categories as category', 'category.id', 'unit_of_measures.category_id')
      .whereNull('unit_of_measures.deleted_at')
      .orderBy('unit_of_measures.id', 'desc')
      .select('unit_of_measures.id', 'unit_of_measures.name', 'category.name as category'),
  );
  assert.ok(uoms.length > 0);
  const expected = ['id,name,category', ...uoms.map((uom) => `${uom.id},${uom.name},${uom.category}`)].join('\r\n');
  assert.is(readFileSync(output, 'utf8'), `\uFEFF${expected}\r\n`);
  assert.match(run.stdout, new RegExp(`^Exported ${uoms.length} row\\(s\\) of support/uoms to ${output} in `));
  assert.match(run.stderr, new RegExp(`^${uoms.length}/${uoms.length} rows \\(100%\\) in \\d+ s\n$`));

  const unknown = await erp(['export', 'support/uoms', '--output', output, '--fields', 'id,nope']);
  assert.is(unknown.code, 1);
  assert.match(unknown.stderr, /^Requested field\(s\) `nope` are not allowed\./);
});

cli('an unknown command prints the usage and fails', async () => {
  const run = await erp(['frobnicate']);
  assert.is(run.code, 2);
  assert.match(run.stdout, /^Usage: npm run erp -- <command>/);
  const help = await erp(['help']);
  assert.is(help.code, 0);
  assert.match(help.stdout, /user:create --email E --name N/);
});

cli('an invalid environment value fails naming the variable', async () => {
  const run = await erp(['migrate'], { PORT: 'abc' });
  assert.is(run.code, 1);
  assert.is(run.stderr.trim(), 'Invalid configuration: PORT must be a whole number from 0 to 65535 (got "abc")');
  const url = await erp(['seed'], { DATABASE_URL: 'postgres://db/erp' });
  assert.is(url.code, 1);
  assert.match(url.stderr, /^Invalid configuration: DATABASE_URL /);
});

cli.run();

// ---------------------------------------------------------------------------------------------

interface Started {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  baseUrl: string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** `npm start` on `file` (the compiled JavaScript that `npm run build` wrote, reused), resolved once it says where it listens. */
function start(file: string, extra: Record<string, string> = {}): Promise<Started> {
  const child = spawn(process.execPath, [...START_NODE_OPTIONS, 'scripts/start.mjs'], {
    cwd: ROOT,
    env: environment({ PORT: '0', ...extra }, file),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  reapOnExit(child);
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no "listening" line within ${STARTUP_TIMEOUT_MS} ms:\n${stdout}\n${stderr}`));
    }, STARTUP_TIMEOUT_MS);
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    };
    child.stdout!.on('data', (chunk) => {
      stdout += String(chunk);
      const match = /^ERP admin API listening on (http:\/\/[^\s/]+)\/admin\/api\/v1$/m.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({ child, stdout: () => stdout, stderr: () => stderr, baseUrl: match[1]!, stop });
      }
    });
    child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${stdout}\n${stderr}`));
    });
  });
}

const main = suite('npm start');
let startDir: string;
let running: Started | undefined;

main.before(async () => {
  startDir = mkdtempSync(join(tmpdir(), 'erp-start-'));
  // What `npm start` does first: compile to dist/<hash>/ (reused as long as the sources stay the same).
  await new Promise<void>((resolve, reject) =>
    execFile(process.execPath, ['scripts/build.mjs'], { cwd: ROOT }, (error, stdout, stderr) =>
      error ? reject(new Error(`npm run build failed:\n${stdout}${stderr}`)) : resolve(),
    ),
  );
});

main.after.each(async () => {
  await running?.stop();
  running = undefined;
});

main.after(() => {
  rmSync(startDir, { recursive: true, force: true });
});

main('boots on a new SQLite file, answers /health and keeps its sessions across a restart', async () => {
  const file = join(startDir, 'data', 'erp.sqlite');
  const secretFile = `${file}.jwt-secret`;

  running = await start(file);
  assert.match(running.baseUrl, /^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
  const client = new Client(running.baseUrl);
  const health = await client.get('/health');
  assert.is(health.status, 200);
  assert.is(health.body.status, 'ok');
  assert.equal(Object.keys(health.body.pressure).sort(), ['event_loop_delay_ms', 'heap_used_mb', 'overloaded', 'rss_mb']);
  // The generated password is printed once, right after the "listening" line.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const admin = /^Administrator created: admin@example\.com \/ (\S+) {2}\(shown once; set ADMIN_PASSWORD to choose it\)$/m.exec(running.stdout());
  assert.ok(admin, running.stdout());
  const login = await client.post('/admin/api/v1/login', { body: { email: 'admin@example.com', password: admin![1] } });
  assert.is(login.status, 200, login.text);
  const token = login.body.token as string;
  assert.ok(existsSync(secretFile), 'the JWT secret is kept beside the database');
  assert.is(statSync(secretFile).mode & 0o777, 0o600, 'only the owner can read the secret');
  const secret = readFileSync(secretFile, 'utf8');
  assert.ok(secret.trim().length >= 32);
  assert.is(await running.stop(), 0, 'SIGTERM shuts down cleanly');
  running = undefined;

  running = await start(file);
  const again = new Client(running.baseUrl);
  assert.is((await again.get('/health')).status, 200);
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.not.match(running.stdout(), /Administrator created/, 'no new password on the second start');
  assert.is(readFileSync(secretFile, 'utf8'), secret, 'the JWT secret file is kept');
  const banks = await again.get('/admin/api/v1/support/banks', { token });
  assert.is(banks.status, 200, 'a token of the first start still works after the restart');
  const users = await withDatabase((knex) => knex('users').pluck('email'), file);
  assert.equal(users, ['admin@example.com'], 'the administrator is not created twice');
  const companies = await withDatabase(async (knex) => Number((await knex('companies').count({ n: '*' }).first())!.n), file);
  assert.is(companies, 1);
  // Compiled migrations are recorded under their .ts names: the sources see nothing left to apply.
  const applied = await withDatabase((knex) => knex('knex_migrations').orderBy('id').pluck('name'), file);
  const sources = readdirSync(join(ROOT, 'migrations'))
    .filter((name) => /^\d{14}_.+\.ts$/.test(name))
    .sort();
  assert.equal(applied, sources);
});

main('ADMIN_PASSWORD chooses the password and none is printed', async () => {
  const file = join(startDir, 'chosen.sqlite');
  running = await start(file, { ADMIN_PASSWORD: 'chosen-password-1' });
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.not.match(running.stdout(), /Administrator created/);
  assert.not.match(running.stdout(), /chosen-password-1/);
  const login = await new Client(running.baseUrl).post('/admin/api/v1/login', { body: { email: 'admin@example.com', password: 'chosen-password-1' } });
  assert.is(login.status, 200, login.text);
});

main('an invalid environment value stops the start naming the variable', async () => {
  const file = join(startDir, 'never.sqlite');
  let failure: Error | undefined;
  try {
    running = await start(file, { PORT: 'abc' });
  } catch (error) {
    failure = error as Error;
  }
  assert.ok(failure, 'the service did not start');
  assert.match(failure!.message, /exited with 1 before listening/);
  assert.match(failure!.message, /Invalid configuration: PORT must be a whole number/);
  assert.not.ok(existsSync(file), 'no database is created');
});

main.run();
