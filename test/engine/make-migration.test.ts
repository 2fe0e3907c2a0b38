// make:migration: on a database migrated from the committed migrations it has nothing to add
// (the migrations and the definitions agree); for a new definition it writes the migration that
// makes the resource work, as the README's "Adding a resource" says; for a definition that
// searches other fields, the one that makes its table's words again; for one that searches none,
// the one that takes them away.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fillWordPairs, generateMigration, readMigratedSchema, storedWords } from '../../engine/index.ts';
import { loadResources, RESOURCES_DIR } from '../../src/app/build-app.ts';
import { API, sharedApp, startApp } from '../helpers/app.ts';
import { databaseTargets } from '../helpers/targets.ts';

const PAYMENT_METHODS = `table: payment_methods
label: Payment method
path: /support/payment-methods
operations: [list, create, show, update, delete, restore, forceDelete]
softDelete: true
creator: true
fields:
  name: { type: string, required: true, maxLength: 255 }
  code: { type: string, maxLength: 20, unique: true }
  fee: { type: decimal, scale: 2, minimum: 0 }
  active: { type: boolean, default: true }
  currency_id: { type: integer, references: support/currencies }
relations:
  currency: { kind: belongsTo, resource: support/currencies, foreignKey: currency_id }
filters:
  id: { kind: list }
  name: { kind: partial }
  trashed: { kind: trashed, values: [with, only] }
sorts: [id, name, created_at]
includes: [currency, creator]
indexes: [[currency_id, name]]
`;

/** Nested under payment methods: read one payment method at a time. */
const PAYMENT_METHOD_LIMITS = `table: payment_method_limits
label: Payment method limit
path: /support/payment-methods/{payment_method_id}/limits
parent: { resource: support/payment-methods, param: payment_method_id, foreignKey: payment_method_id }
operations: [list, create, show]
softDelete: true
fields:
  amount: { type: decimal, scale: 2, required: true }
  sort: { type: integer }
  payment_method_id: { type: integer, required: true, references: support/payment-methods }
filters:
  amount: { kind: exact }
sorts: [id, amount, sort, created_at]
indexes: [[payment_method_id, deleted_at, amount]]
`;

/**
 * A generated migration written into `dir` and imported, as knex would run it. Its import of the
 * engine is relative to migrations/: here, the engine is elsewhere.
 */
async function importMigration(dir: string, source: string): Promise<{ up(knex: unknown): Promise<void>; down(knex: unknown): Promise<void> }> {
  writeFileSync(join(dir, 'migration.ts'), source.replace("from '../engine/index.ts'", `from '${fileURLToPath(new URL('../../engine/index.ts', import.meta.url))}'`));
  return import(pathToFileURL(join(dir, 'migration.ts')).href);
}

for (const target of databaseTargets()) {
  const test = suite(`make:migration [${target.name}]`);

  test('nothing to add on a database migrated from the committed migrations', async () => {
    const { knex } = await sharedApp(target);
    const registry = loadResources();
    assert.is(generateMigration(registry, await readMigratedSchema(knex, registry)), undefined);
  });

  if (target.name === 'sqlite') {
    test('a nested resource gets its parent key’s index and no per-column ones', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'erp-make-migration-'));
      try {
        cpSync(RESOURCES_DIR, join(dir, 'resources'), { recursive: true });
        writeFileSync(join(dir, 'resources', 'support', 'payment-methods.yaml'), PAYMENT_METHODS);
        writeFileSync(join(dir, 'resources', 'support', 'payment-method-limits.yaml'), PAYMENT_METHOD_LIMITS);
        const registry = loadResources(join(dir, 'resources'));
        const { knex } = await sharedApp(target);
        const { source } = generateMigration(registry, await readMigratedSchema(knex, registry))!;
        const limits = source.slice(source.indexOf("createTable('payment_method_limits'"));
        // Its declared index starts with the key and serves the key's lookups: no index of the key alone.
        assert.match(limits, /foreignId\(t, 'payment_method_id', 'payment_methods', 'RESTRICT', \{ indexed: false \}\)\.notNullable\(\);/);
        assert.match(limits, /t\.index\(\['payment_method_id', 'deleted_at', 'amount'\], 'payment_method_limits_payment_method_id_deleted_at_amount_index'\);/);
        assert.match(limits, /t\.decimal\('amount', 15, 2\)\.notNullable\(\);/, 'a filter and sort of a nested resource: no index');
        // New records go last by the table's MAX(sort): without its index that reads every row.
        assert.match(limits, /t\.integer\('sort'\)\.nullable\(\)\.index\(\);/, 'a sort column keeps its index');
        assert.match(limits, /timestamps\(t, \{ indexed: false \}\);\n\s+softDeletes\(t, \{ indexed: false \}\);/);
        assert.match(source, /t\.string\('name', 255\)\.notNullable\(\)\.index\(\)/, 'a top-level resource keeps its filter indexes');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    test('new tables come after the new tables they reference, and columns new to existing tables after both', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'erp-make-migration-'));
      try {
        cpSync(RESOURCES_DIR, join(dir, 'resources'), { recursive: true });
        // The limits sort before the methods they reference; banks, an existing table, gains a reference to them.
        writeFileSync(join(dir, 'resources', 'support', 'payment-methods.yaml'), PAYMENT_METHODS);
        writeFileSync(join(dir, 'resources', 'support', 'payment-method-limits.yaml'), PAYMENT_METHOD_LIMITS);
        const banks = join(dir, 'resources', 'support', 'banks.yaml');
        writeFileSync(banks, readFileSync(banks, 'utf8').replace('fields:\n', 'fields:\n  payment_method_id: { type: integer, references: support/payment-methods }\n'));
        const registry = loadResources(join(dir, 'resources'));
        const { knex } = await sharedApp(target);
        const { source } = generateMigration(registry, await readMigratedSchema(knex, registry))!;
        const methods = source.indexOf("createTable('payment_methods'");
        const limits = source.indexOf("createTable('payment_method_limits'");
        const bankColumn = source.indexOf("alterTable('banks'");
        assert.ok(methods >= 0 && limits >= 0 && bankColumn >= 0, source);
        assert.ok(methods < limits, 'the referenced table first: MySQL checks a foreign key when it is made');
        assert.ok(limits < bankColumn, 'new columns of existing tables after every new table');
        const down = source.slice(source.indexOf('export async function down'));
        assert.ok(down.indexOf("alterTable('banks'") < down.indexOf("dropTableIfExists('payment_methods')"), 'undone in the reverse order');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    test('a new definition gets the migration that makes it work', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'erp-make-migration-'));
      try {
        cpSync(RESOURCES_DIR, join(dir, 'resources'), { recursive: true });
        writeFileSync(join(dir, 'resources', 'support', 'payment-methods.yaml'), PAYMENT_METHODS);
        cpSync(fileURLToPath(new URL('../../migrations/helpers.ts', import.meta.url)), join(dir, 'helpers.ts'));
        const registry = loadResources(join(dir, 'resources'));
        let source = '';
        const withResource = await startApp(target, {
          resourcesDir: join(dir, 'resources'),
          // What a user does: make:migration, review, migrate; then the service starts with the new definition.
          async prepare(knex) {
            const migration = generateMigration(registry, await readMigratedSchema(knex, registry), 'support/payment-methods');
            assert.ok(migration);
            assert.is(migration!.name, 'create_payment_methods');
            source = migration!.source;
            const { up } = await importMigration(dir, source);
            await up(knex);
          },
        });
        assert.match(source, /t\.string\('code', 20\)\.nullable\(\)\.unique\('payment_methods_code_unique'\)/);
        assert.match(source, /foreignId\(t, 'currency_id', 'currencies', 'RESTRICT', \{ indexed: false \}\)\.nullable\(\)/);
        assert.match(source, /t\.index\(\['currency_id', 'name'\], 'payment_methods_currency_id_name_index'\)/);
        assert.match(source, /t\.string\('name', 255\)\.notNullable\(\)\.index\(\)/);
        assert.match(source, /await addSearchIndex\(knex, 'payment_methods'\);/, 'searched by its name and code');
        const token = await withResource.login();
        // Plain fetch: the test client checks answers against the committed API reference, which does not know this resource.
        const call = async (path: string, init: RequestInit = {}) => {
          const response = await fetch(`${withResource.client.baseUrl}${API}${path}`, {
            ...init,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
          });
          return { status: response.status, body: (await response.json()) as any };
        };
        const created = await call('/support/payment-methods?include=currency', { method: 'POST', body: JSON.stringify({ name: 'Card', code: 'CARD', fee: 1.5, currency_id: 1 }) });
        assert.is(created.status, 201, JSON.stringify(created.body));
        assert.equal([created.body.data.fee, created.body.data.active, created.body.data.currency.id], ['1.50', true, 1]);
        const listed = await call('/support/payment-methods?filter[name]=car');
        assert.is(listed.body.meta.total, 1);
        const searched = await call('/support/payment-methods?search=card');
        assert.equal(
          searched.body.data.map((row: { code: string }) => row.code),
          ['CARD'],
          'found by its words, in the index the migration made',
        );
        await withResource.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    test('a definition that searches another field gets the migration that makes its words again, for the records stored before', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'erp-make-migration-'));
      try {
        cpSync(RESOURCES_DIR, join(dir, 'resources'), { recursive: true });
        const banks = join(dir, 'resources', 'support', 'banks.yaml');
        writeFileSync(
          banks,
          readFileSync(banks, 'utf8').replace('sorts: [id, name, code, city, created_at]', 'sorts: [id, name, code, city, created_at]\nsearch: [name, code, email, city]'),
        );
        const registry = loadResources(join(dir, 'resources'));
        let source = '';
        let stored = 0;
        const withSearch = await startApp(target, {
          resourcesDir: join(dir, 'resources'),
          async prepare(knex) {
            // A bank stored before the change: its words made from name, code and email only.
            const [id] = await knex('banks').insert({ name: 'Kantonalbank', code: 'KBW', city: 'Winterthur', search_words: storedWords(['KBW', 'Kantonalbank']) });
            stored = Number(id);
            await fillWordPairs(knex, 'banks');
            const migration = generateMigration(registry, await readMigratedSchema(knex, registry), 'support/banks');
            assert.ok(migration, 'a migration for the changed search');
            assert.is(migration!.name, 'search_banks_by_city_code_email_name');
            source = migration!.source;
            const { up } = await importMigration(dir, source);
            await up(knex);
            assert.is(generateMigration(registry, await readMigratedSchema(knex, registry), 'support/banks'), undefined, 'nothing left to do once it ran');
          },
        });
        assert.match(source, /await fillSearchWords\(knex, 'banks', \['city', 'code', 'email', 'name'\]/);
        assert.match(source, /down[\s\S]*await fillSearchWords\(knex, 'banks', \['code', 'email', 'name'\]/, 'down makes the words as they were');
        const token = await withSearch.login();
        const response = await fetch(`${withSearch.client.baseUrl}${API}/support/banks?search=winterthur`, {
          headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        });
        const body = (await response.json()) as { data: Array<{ id: number }> };
        assert.equal(
          body.data.map((row) => row.id),
          [Number(stored)],
          'the bank stored before the change is found by its city',
        );
        await withSearch.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    test('a new related copy is filled for the rows stored before, from the records their key names', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'erp-make-migration-'));
      try {
        cpSync(RESOURCES_DIR, join(dir, 'resources'), { recursive: true });
        const uoms = join(dir, 'resources', 'support', 'uoms.yaml');
        writeFileSync(
          uoms,
          readFileSync(uoms, 'utf8').replace(
            '  category_id: { type: integer, required: true }',
            '  category_id: { type: integer, required: true }\n  category_name: { type: string, related: category.name }',
          ),
        );
        const registry = loadResources(join(dir, 'resources'));
        let source = '';
        const app = await startApp(target, {
          resourcesDir: join(dir, 'resources'),
          async prepare(knex) {
            const [category] = await knex('unit_of_measure_categories').insert({ name: `Copied ${target.name}` });
            const [uom] = await knex('unit_of_measures').insert({ type: 'reference', name: 'unit', factor: 1, rounding: 0.01, category_id: Number(category) });
            const migration = generateMigration(registry, await readMigratedSchema(knex, registry), 'support/uoms');
            assert.ok(migration, 'a migration for the new column');
            source = migration!.source;
            const { up } = await importMigration(dir, source);
            await up(knex);
            assert.is((await knex('unit_of_measures').where('id', Number(uom)).first('category_name')).category_name, `Copied ${target.name}`, 'the stored UOM has its copy');
            assert.is(generateMigration(registry, await readMigratedSchema(knex, registry), 'support/uoms'), undefined, 'nothing left to do once it ran');
          },
        });
        assert.match(source, /await knex\('unit_of_measures'\)\.update\(\{ category_name: knex\('unit_of_measure_categories'\)\.select\('name'\)/);
        await app.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    test('a table no definition searches any more gets the migration that takes its words away, and its down puts them back', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'erp-make-migration-'));
      try {
        cpSync(RESOURCES_DIR, join(dir, 'resources'), { recursive: true });
        const banks = join(dir, 'resources', 'support', 'banks.yaml');
        writeFileSync(banks, readFileSync(banks, 'utf8').replace('sorts: [id, name, code, city, created_at]', 'sorts: [id, name, code, city, created_at]\nsearch: false'));
        const registry = loadResources(join(dir, 'resources'));
        let source = '';
        let stored = 0;
        let migration: { up(knex: unknown): Promise<void>; down(knex: unknown): Promise<void> } | undefined;
        const withoutSearch = await startApp(target, {
          resourcesDir: join(dir, 'resources'),
          async prepare(knex) {
            const [id] = await knex('banks').insert({ name: 'Kantonalbank', code: 'KBW', search_words: storedWords(['KBW', 'Kantonalbank']) });
            stored = Number(id);
            await fillWordPairs(knex, 'banks');
            const generated = generateMigration(registry, await readMigratedSchema(knex, registry), 'support/banks');
            assert.ok(generated, 'a migration for the search turned off');
            assert.is(generated!.name, 'drop_search_from_banks');
            source = generated!.source;
            migration = await importMigration(dir, source);
            await migration!.up(knex);
            assert.is(generateMigration(registry, await readMigratedSchema(knex, registry), 'support/banks'), undefined, 'nothing left to do once it ran');
          },
        });
        assert.match(source, /up[\s\S]*await dropSearchIndex\(knex, 'banks'\);[\s\S]*down/);
        assert.match(
          source,
          /down[\s\S]*await addSearchIndex\(knex, 'banks'\);\n\s*await fillSearchWords\(knex, 'banks', \['code', 'email', 'name'\]/,
          'down makes the words of the fields searched before',
        );
        const { knex } = withoutSearch;
        assert.not.ok(await knex.schema.hasColumn('banks', 'search_words'), 'the words column is gone');
        assert.not.ok(await knex.schema.hasTable('banks_search'), 'and their pairs');
        assert.is(await knex('search_columns').where('table_name', 'banks').first(), undefined, 'and the record of what they were made from');
        const token = await withoutSearch.login();
        const call = async (path: string, init: RequestInit = {}) => {
          const response = await fetch(`${withoutSearch.client.baseUrl}${API}${path}`, {
            ...init,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
          });
          return { status: response.status, body: (await response.json()) as any };
        };
        assert.is((await call('/support/banks?search=kantonalbank')).status, 400, 'a search is refused, as for any resource that offers none');
        const created = await call('/support/banks', { method: 'POST', body: JSON.stringify({ name: 'Raiffeisen', code: 'RAI' }) });
        assert.is(created.status, 201, JSON.stringify(created.body));
        await withoutSearch.close();

        // Rolled back (the definitions searching banks again): the words of the old fields for every row.
        const restored = await startApp(target, {
          async prepare(fresh) {
            const [id] = await fresh('banks').insert({ name: 'Kantonalbank', code: 'KBW' });
            stored = Number(id);
            await migration!.up(fresh);
            await migration!.down(fresh);
          },
        });
        const token2 = await restored.login();
        const found = await fetch(`${restored.client.baseUrl}${API}/support/banks?search=kantonal`, { headers: { authorization: `Bearer ${token2}`, accept: 'application/json' } });
        assert.equal(
          ((await found.json()) as { data: Array<{ id: number }> }).data.map((row) => row.id),
          [stored],
          'found by its name again',
        );
        assert.equal((await restored.knex('search_columns').where('table_name', 'banks').first())?.columns.split(','), ['code', 'email', 'name']);
        await restored.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
  test.run();
}
