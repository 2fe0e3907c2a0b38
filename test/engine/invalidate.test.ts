// A definition's `invalidates` (engine/write/invalidate.ts): at the end of a unit of writing, each
// invalidator named by a resource the unit wrote runs once, in the unit's transaction, however many
// records it wrote and however (here a behaviour's writes through the record writers).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Behaviours, Records } from '../../engine/behaviours/types.ts';
import { loadRegistry } from '../../engine/keys/registry.ts';
import type { Registry } from '../../engine/definition/registry.ts';
import { registerFormats } from '../../engine/schema/string-formats.ts';
import { testUnits } from '../helpers/write-unit.ts';

const FILES = {
  'support/grants.yaml': `table: grants
label: Grant
path: /support/grants
operations: [list]
search: false
timestamps: false
fields:
  name: { type: string, required: true }
invalidates: [counted]
`,
  'support/tags.yaml': `table: tags
label: Tag
path: /support/tags
operations: [list]
search: false
timestamps: false
fields:
  name: { type: string, required: true }
`,
};

const test = suite('invalidates');
let dir: string;
let knex: Knex;
let registry: Registry;
const behaviours: Behaviours = {
  hooks: {},
  batches: {},
  computed: {},
  subqueries: {},
  actions: {},
  invalidators: { counted: async (trx) => void (await trx('counter').increment('calls', 1)) },
};

/** A unit of writing, as a request's: the work, then the invalidators, in one transaction. */
async function inUnit(work: (records: Records) => Promise<unknown>): Promise<number> {
  await testUnits(knex, registry, behaviours).run(({ context }) => work(context.records));
  return Number((await knex('counter').first('calls')).calls);
}

test.before(async () => {
  registerFormats();
  dir = mkdtempSync(join(tmpdir(), 'erp-invalidates-'));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  registry = loadRegistry(dir, new Set(), new Set(), new Set(['counted']));
  knex = knexFactory({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
  for (const table of ['grants', 'tags'])
    await knex.schema.createTable(table, (columns) => {
      columns.increments('id');
      columns.string('name');
    });
  await knex.schema.createTable('counter', (columns) => columns.integer('calls'));
  await knex('counter').insert({ calls: 0 });
});

test.after(async () => {
  await knex?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

test('many writes of a resource through the record writers: its invalidator runs once for the unit', async () => {
  const calls = await inUnit(async (records) => {
    const id = await records('support/grants').create({ name: 'one' });
    await records('support/grants').createMany([{ name: 'two' }, { name: 'three' }]);
    await records('support/grants').update(id, { name: 'first' });
    await records('support/grants').updateMany([id], { name: 'renamed' });
    await records('support/grants').forceDeleteMany((query) => query.where('name', 'three'));
  });
  assert.is(calls, 1);
  assert.equal(await knex('grants').orderBy('id').pluck('name'), ['renamed', 'two']);
});

test('each way of writing counts on its own; a unit writing only other resources runs none', async () => {
  const before = Number((await knex('counter').first('calls')).calls);
  assert.is(await inUnit((records) => records('support/tags').create({ name: 'free' })), before, 'tags invalidate nothing');
  assert.is(await inUnit((records) => records('support/grants').updateMany((query) => query.where('name', 'two'), { name: 'second' })), before + 1, 'a set-based update');
  assert.is(await inUnit(async (records) => records('support/grants').changed([1], 'validated')), before + 2, 'a change a behaviour reports');
  assert.is(await inUnit((records) => records('support/grants').forceDeleteMany((query) => query.where('name', 'second'))), before + 3, 'a removal');
});

test.run();
