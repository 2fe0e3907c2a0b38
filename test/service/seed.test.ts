// First-start reference data on a fresh database of each target, and that seeding again adds nothing.
import { randomBytes } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyPassword } from '../../src/auth/passwords.ts';
import { parseDatabaseUrl } from '../../src/app/config.ts';
import { createKnex } from '../../src/database/connection.ts';
import { migrateLatest } from '../../src/database/migrations.ts';
import { seed, type SeedResult } from '../../src/seed/index.ts';
import { copyMysqlTemplate } from '../helpers/migrated-template.ts';
import { databaseTargets, type Target } from '../helpers/targets.ts';

const ADMIN = { adminEmail: 'owner@example.com', adminName: 'Owner', adminPassword: undefined };
const TABLES = [
  'users',
  'permissions',
  'roles',
  'role_permissions',
  'user_roles',
  'user_companies',
  'currencies',
  'countries',
  'states',
  'companies',
  'unit_of_measure_categories',
  'unit_of_measures',
];
const UOM_CATEGORIES = ['Unit', 'Weight', 'Working Time', 'Length / Distance', 'Surface', 'Volume'];

interface FreshDatabase {
  knex: Knex;
  drop(): Promise<void>;
}

/**
 * A database of its own, without the seed: in memory on SQLite, `erp_seed_<random>` on the MySQL
 * server, there a copy of the migrated template (test/helpers/migrated-template.ts: what the migrations make
 * of an empty database, which took 15-30 s of MariaDB here; the test is about the seed).
 */
async function freshDatabase(target: Target): Promise<FreshDatabase> {
  const config = parseDatabaseUrl(target.databaseUrl);
  if (config.client === 'sqlite') {
    const knex = createKnex({ client: 'sqlite', filename: ':memory:' });
    return { knex, drop: () => knex.destroy() };
  }
  const name = `erp_seed_${randomBytes(4).toString('hex')}`;
  const server = knexFactory({ client: 'mysql2', connection: { host: config.host, port: config.port, user: config.user, password: config.password } });
  await server.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await copyMysqlTemplate(config, name);
  const knex = createKnex({ ...config, database: name });
  return {
    knex,
    async drop() {
      await knex.destroy();
      await server.raw(`DROP DATABASE IF EXISTS \`${name}\``);
      await server.destroy();
    },
  };
}

async function rowCounts(knex: Knex): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) counts[table] = Number((await knex(table).count({ n: '*' }).first())!.n);
  return counts;
}

for (const target of databaseTargets()) {
  const test = suite(`seed [${target.name}]`);
  let db: FreshDatabase;
  let knex: Knex;
  let result: SeedResult;

  test.before(async () => {
    db = await freshDatabase(target);
    knex = db.knex;
    await migrateLatest(knex);
    result = await seed(knex, ADMIN);
  });

  test.after(async () => {
    await db?.drop();
  });

  test('reports what it added', async () => {
    const counts = await rowCounts(knex);
    assert.equal(result.added, {
      users: 1,
      permissions: counts.permissions,
      currencies: counts.currencies,
      countries: counts.countries,
      states: counts.states,
      companies: 1,
      uoms: counts.unit_of_measure_categories! + counts.unit_of_measures!,
    });
  });

  test('USD is currency 1 and the only active one', async () => {
    const usd = await knex('currencies').where('id', 1).first();
    assert.is(usd.name, 'USD');
    assert.ok(Boolean(usd.active), 'USD is active');
    assert.is(usd.symbol, '$');
    assert.is(usd.full_name, 'US Dollar');
    assert.is(usd.iso_numeric, '840');
    assert.is(Number(usd.decimal_places), 2);
    assert.is(Number(usd.rounding), 0.01);
    const active = await knex('currencies').where('active', true).pluck('name');
    assert.equal(active, ['USD']);
  });

  test('more than 150 currencies, each with its decimal places', async () => {
    const currencies = await knex('currencies').select('name', 'decimal_places', 'rounding');
    assert.ok(currencies.length > 150, `${currencies.length} currencies`);
    for (const currency of currencies) {
      assert.match(currency.name, /^[A-Z]{3}$/);
      assert.type(Number(currency.decimal_places), 'number');
      assert.ok(Number(currency.decimal_places) >= 0 && Number(currency.decimal_places) <= 4, `${currency.name}: ${currency.decimal_places}`);
    }
    const byCode = new Map(currencies.map((c) => [c.name, c]));
    assert.is(Number(byCode.get('JPY')!.decimal_places), 0);
    assert.is(Number(byCode.get('JPY')!.rounding), 1);
    assert.is(Number(byCode.get('EUR')!.decimal_places), 2);
    assert.is(Number(byCode.get('KWD')!.decimal_places), 3);
    assert.is(Number(byCode.get('KWD')!.rounding), 0.001);
  });

  test('at least 249 countries with their codes; the US calls with 1 and pays in USD', async () => {
    const countries = await knex('countries').select('name', 'code', 'phone_code', 'currency_id');
    assert.ok(countries.length >= 249, `${countries.length} countries`);
    const codes = new Set<string>();
    for (const country of countries) {
      assert.match(country.code, /^[A-Z]{2}$/);
      assert.ok(country.name, `${country.code} has a name`);
      codes.add(country.code);
    }
    assert.is(codes.size, countries.length, 'country codes are unique');
    const us = countries.find((c) => c.code === 'US')!;
    assert.is(us.phone_code, '1');
    assert.is(Number(us.currency_id), 1);
    const france = countries.find((c) => c.code === 'FR')!;
    assert.is(france.phone_code, '33');
    const eur = await knex('currencies').where('name', 'EUR').first('id');
    assert.is(Number(france.currency_id), Number(eur.id));
  });

  test('the states of the US include California (CA)', async () => {
    const states = await knex('states').join('countries', 'countries.id', 'states.country_id').where('countries.code', 'US').select('states.name', 'states.code');
    assert.ok(states.length >= 50, `${states.length} US states`);
    assert.ok(
      states.some((s) => s.name === 'California' && s.code === 'CA'),
      'California is there',
    );
    assert.ok(
      states.some((s) => s.name === 'Texas' && s.code === 'TX'),
      'Texas is there',
    );
    for (const state of states) assert.not.match(state.code, /^US-/, 'codes are without the country prefix');
  });

  test('one company, "My Company", in USD, created by the administrator', async () => {
    const companies = await knex('companies').select();
    assert.is(companies.length, 1);
    assert.is(companies[0].name, 'My Company');
    assert.is(Number(companies[0].currency_id), 1);
    assert.ok(Boolean(companies[0].is_active));
    assert.is(Number(companies[0].creator_id), result.admin!.id);
  });

  test('the six UOM categories, each with one reference unit', async () => {
    const categories = await knex('unit_of_measure_categories').orderBy('id').select('id', 'name');
    assert.equal(
      categories.map((c) => c.name),
      UOM_CATEGORIES,
    );
    for (const category of categories) {
      const references = await knex('unit_of_measures').where({ category_id: category.id, type: 'reference' }).select('name', 'factor');
      assert.is(references.length, 1, `${category.name} has one reference unit`);
      assert.is(Number(references[0].factor), 1);
    }
    const unit = async (categoryName: string, name: string) =>
      knex('unit_of_measures')
        .join('unit_of_measure_categories', 'unit_of_measure_categories.id', 'unit_of_measures.category_id')
        .where('unit_of_measure_categories.name', categoryName)
        .where('unit_of_measures.name', name)
        .first('unit_of_measures.type', 'unit_of_measures.factor', 'unit_of_measures.rounding');
    const kg = await unit('Weight', 'kg');
    assert.is(kg.type, 'reference');
    assert.is(Number(kg.factor), 1);
    const g = await unit('Weight', 'g');
    assert.is(g.type, 'smaller');
    assert.is(Number(g.factor), 1000);
    assert.is(Number(g.rounding), 0.01);
    assert.is((await unit('Volume', 'L')).type, 'reference');
    assert.is((await unit('Surface', 'm²')).type, 'reference');
    assert.is((await unit('Working Time', 'Hours')).type, 'smaller');
  });

  test('the administrator is stored with a bcrypt hash of the generated password', async () => {
    const users = await knex('users').select('id', 'name', 'email', 'password');
    assert.is(users.length, 1);
    const admin = users[0];
    assert.is(admin.email, 'owner@example.com');
    assert.is(admin.name, 'Owner');
    assert.is(Number(admin.id), result.admin!.id);
    assert.is(result.admin!.email, 'owner@example.com');
    const generated = result.admin!.generatedPassword;
    assert.type(generated, 'string');
    assert.ok(generated!.length >= 12, 'a long password');
    assert.match(admin.password, /^\$2[aby]\$10\$/);
    assert.is.not(admin.password, generated);
    assert.ok(await verifyPassword(generated!, admin.password), 'the generated password verifies');
    assert.not.ok(await verifyPassword('admin-password-1', admin.password));
  });

  test('the administrator holds the Admin role, which holds every permission, and works in the seeded company', async () => {
    const permissions = await knex('permissions').pluck('name');
    assert.ok(permissions.includes('view_any_inventory_tag') && permissions.includes('update_inventory_operation::type') && permissions.includes('bypass_company_scope'));
    const admin = await knex('users').where('email', ADMIN.adminEmail).first('id', 'default_company_id', 'resource_permission');
    const roles = await knex('user_roles').join('roles', 'roles.id', 'user_roles.role_id').where('user_id', admin.id).pluck('roles.name');
    assert.equal(roles, ['Admin']);
    const held = await knex('role_permissions').join('roles', 'roles.id', 'role_permissions.role_id').where('roles.name', 'Admin').count({ n: '*' }).first();
    assert.is(Number(held!.n), permissions.length);
    assert.is(admin.resource_permission, 'global');
    const company = await knex('companies').orderBy('id').first('id');
    assert.is(Number(admin.default_company_id), Number(company.id));
    assert.equal((await knex('user_companies').where('user_id', admin.id).pluck('company_id')).map(Number), [Number(company.id)]);
  });

  test('a permission the registry needs but the database lacks (a new resource) is added and granted to Admin', async () => {
    const removed = await knex('permissions').where('name', 'view_any_inventory_tag').first('id');
    await knex('role_permissions').where('permission_id', removed.id).delete();
    await knex('permissions').where('id', removed.id).delete();
    const again = await seed(knex, ADMIN);
    assert.is(again.added.permissions, 1);
    const granted = await knex('role_permissions')
      .join('permissions', 'permissions.id', 'role_permissions.permission_id')
      .join('roles', 'roles.id', 'role_permissions.role_id')
      .where({ 'roles.name': 'Admin', 'permissions.name': 'view_any_inventory_tag' })
      .first('permissions.ability', 'permissions.resource');
    assert.equal(granted, { ability: 'view_any', resource: 'inventories/tags' });
  });

  test('seeding again adds nothing', async () => {
    const before = await rowCounts(knex);
    const again = await seed(knex, ADMIN);
    assert.equal(again.added, { users: 0, permissions: 0, currencies: 0, countries: 0, states: 0, companies: 0, uoms: 0 });
    assert.is(again.admin, undefined, 'no password is generated again');
    assert.equal(await rowCounts(knex), before);
  });

  test('a state an administrator removed is not brought back by the next start', async () => {
    const andorra = await knex('countries').where('code', 'AD').first('id');
    const removed = await knex('states').where('country_id', andorra.id).orderBy('code').first('id', 'code');
    await knex('states').where('id', removed.id).delete();
    const again = await seed(knex, ADMIN);
    assert.is(again.added.states, 0);
    assert.is(await knex('states').where({ country_id: andorra.id, code: removed.code }).first('id'), undefined);
  });

  test('while the states table is empty, the next start fills it again', async () => {
    const states = Number((await knex('states').count({ n: '*' }).first())!.n);
    await knex('states').delete();
    const again = await seed(knex, ADMIN);
    assert.is(again.added.currencies, 0, 'the filled tables are left as they are');
    assert.is(again.added.countries, 0);
    assert.is(again.added.states, states + 1, 'all of them, also the one removed before');
    const us = await knex('states').join('countries', 'countries.id', 'states.country_id').where({ 'countries.code': 'US', 'states.code': 'CA' }).first('states.name');
    assert.is(us?.name, 'California');
  });

  test('the administrator is found whatever the case of ADMIN_EMAIL', async () => {
    const before = await rowCounts(knex);
    const again = await seed(knex, { ...ADMIN, adminEmail: 'Owner@Example.COM' });
    assert.is(again.added.users, 0);
    assert.equal(await rowCounts(knex), before);
  });

  test('a password given is the one stored and is not handed back', async () => {
    const again = await seed(knex, { adminEmail: 'second@example.com', adminName: 'Second', adminPassword: 'chosen-password' });
    assert.is(again.added.users, 1);
    assert.is(again.added.companies, 0);
    assert.is(again.admin!.generatedPassword, undefined);
    const user = await knex('users').where('email', 'second@example.com').first('password');
    assert.is.not(user.password, 'chosen-password');
    assert.ok(await verifyPassword('chosen-password', user.password));
  });

  test.run();
}
