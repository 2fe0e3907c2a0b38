// `npm run bench:authorization`: what the authorization check costs. Seeds a SQLite database
// (2,000 UOMs, 1,000 products in two companies), then measures list and show throughput of a user
// holding just the permissions needed (company scope applies to products), with the check on and
// with an allow-all policy, in alternating rounds, each server in its own process. Prints req/s
// per variant and the cost of the check; the budget is under 5 %.
//   node --import tsx bench/authorization.ts [--duration 10] [--rounds 3] [--connections 20]
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { bumpAccessVersion } from '../src/access/access-version.ts';
import { loadConfig } from '../src/app/config.ts';
import { createKnex } from '../src/database/connection.ts';
import { migrateLatest } from '../src/database/migrations.ts';
import { seed } from '../src/seed/index.ts';
import { buildServer } from '../src/app/build-app.ts';

const { values: options } = parseArgs({
  options: { duration: { type: 'string', default: '10' }, rounds: { type: 'string', default: '3' }, connections: { type: 'string', default: '20' } },
});
const SECRET = 'bench-secret-bench-secret-bench-secret-0123';
const PORT = 3917;
const dir = mkdtempSync(join(tmpdir(), 'erp-bench-'));
const env = { DATABASE_URL: `sqlite:${join(dir, 'bench.sqlite')}`, JWT_SECRET: SECRET, PORT: String(PORT), ADMIN_PASSWORD: 'bench-password' };

async function prepare(): Promise<{ token: string; paths: Record<string, string> }> {
  const config = loadConfig(env);
  const knex = createKnex(config.database);
  await migrateLatest(knex);
  await seed(knex, config);
  const now = '2025-01-31 09:30:00.000000';
  const [categoryId] = await knex('unit_of_measure_categories').insert({ name: 'Bench', created_at: now, updated_at: now });
  const uoms = Array.from({ length: 2000 }, (_, i) => ({
    category_id: categoryId,
    name: `unit ${i}`,
    type: 'smaller',
    factor: i + 1,
    rounding: 0.01,
    created_at: now,
    updated_at: now,
  }));
  for (let i = 0; i < uoms.length; i += 200) await knex('unit_of_measures').insert(uoms.slice(i, i + 200));
  const [otherCompany] = await knex('companies').insert({ name: 'Bench other', currency_id: 1, is_active: true, created_at: now, updated_at: now });
  const category = await knex('products_categories').orderBy('id').first('id');
  const uom = await knex('unit_of_measures').orderBy('id').first('id');
  const products = Array.from({ length: 1000 }, (_, i) => ({
    name: `product ${i}`,
    type: 'goods',
    price: 10,
    category_id: category.id,
    uom_id: uom.id,
    uom_po_id: uom.id,
    company_id: i % 2 ? 1 : otherCompany,
    created_at: now,
    updated_at: now,
  }));
  for (let i = 0; i < products.length; i += 200) await knex('products_products').insert(products.slice(i, i + 200));

  // A reader of UOM categories and products, working in company 1 only.
  const [roleId] = await knex('roles').insert({ name: 'Bench reader', created_at: now, updated_at: now });
  const names = ['view_any_support_u::o::m::category', 'view_support_u::o::m::category', 'view_any_product_product', 'view_product_product'];
  const permissionIds = await knex('permissions').whereIn('name', names).pluck('id');
  await knex('role_permissions').insert(permissionIds.map((id: number) => ({ role_id: roleId, permission_id: id })));
  const [userId] = await knex('users').insert({ name: 'Bench', email: 'bench@example.com', password: 'x', default_company_id: 1, created_at: now, updated_at: now });
  await knex('user_roles').insert({ user_id: userId, role_id: roleId });
  await bumpAccessVersion(knex);
  // A login-style token signed with the same secret the servers use.
  const app = await buildServer({ config: { ...config, logLevel: 'silent' }, knex, jwtSecret: SECRET });
  const token = app.jwt.sign({ sub: String(userId), jti: 'bench-token' });
  await app.close();
  const uomId = (await knex('unit_of_measures').where('category_id', categoryId).orderBy('id').offset(500).first('id')).id;
  const productId = (await knex('products_products').where('company_id', 1).orderBy('id').offset(100).first('id')).id;
  await knex.destroy();
  const base = '/admin/api/v1';
  return {
    token,
    paths: {
      'UOM list': `${base}/support/uom-categories/${categoryId}/uoms?filter[name]=unit 1&sort=-name&per_page=15`,
      'UOM show': `${base}/support/uom-categories/${categoryId}/uoms/${uomId}`,
      'product list (company scope)': `${base}/products/products?per_page=15`,
      'product show (company scope)': `${base}/products/products/${productId}`,
    },
  };
}

function startServer(policy: 'on' | 'off'): Promise<ChildProcess> {
  const child = fork(fileURLToPath(new URL('./serve.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env, ...(policy === 'off' && { BENCH_POLICY: 'allow-all' }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the ${policy} server exited with ${code}`)));
  });
}

async function measure(path: string, token: string): Promise<number> {
  const result = await autocannon({
    url: `http://127.0.0.1:${PORT}${path}`,
    headers: { authorization: `Bearer ${token}` },
    connections: Number(options.connections),
    duration: Number(options.duration),
  });
  if (result.non2xx > 0) throw new Error(`${path}: ${result.non2xx} answers were not 2xx`);
  return result.requests.average;
}

async function main(): Promise<void> {
  const { token, paths } = await prepare();
  if (process.env.BENCH_PREPARE_ONLY) return void console.log(JSON.stringify({ env, token, paths }));
  const results: Record<string, { on: number[]; off: number[] }> = {};
  for (let round = 0; round < Number(options.rounds); round++) {
    for (const policy of round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
      const server = await startServer(policy);
      for (const [name, path] of Object.entries(paths)) {
        await measure(path, token); // warm-up: caches, JIT
        (results[name] ??= { on: [], off: [] })[policy].push(await measure(path, token));
      }
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(`\n| Request | req/s, check on | req/s, allow-all | cost of the check |\n|---|---:|---:|---:|`);
  for (const [name, { on, off }] of Object.entries(results)) {
    const cost = (1 - median(on) / median(off)) * 100;
    console.log(`| ${name} | ${median(on).toFixed(0)} | ${median(off).toFixed(0)} | ${cost.toFixed(1)} % |`);
  }
  console.log(`\n(${options.rounds} alternating rounds of ${options.duration} s, ${options.connections} connections, medians; SQLite.)`);
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => process.env.BENCH_PREPARE_ONLY || rmSync(dir, { recursive: true, force: true }));
