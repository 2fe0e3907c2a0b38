// A behaviour's write to another resource (`records(name)` in its context, engine/write/
// writers.ts) goes the way a client's request goes: the target's validation, defaults,
// hooks, timestamps, creator and change feed all apply — none of which a raw insert into its
// table gives. A system write may set readOnly fields, still checked like any other. A set-based
// update keeps the copies (`related`) other records hold of what it sets, and the words a search
// finds its records by.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ChangeSet } from '../../engine/behaviours/change-set.ts';
import type { Behaviours, Records } from '../../engine/behaviours/types.ts';
import { loadRegistry } from '../../engine/keys/registry.ts';
import type { Registry } from '../../engine/definition/registry.ts';
import { ValidationError } from '../../engine/errors/http-errors.ts';
import { registerFormats } from '../../engine/schema/string-formats.ts';
import { addSearchIndex } from '../../engine/sql/search-index.ts';
import { testUnits, WRITER as USER } from '../helpers/write-unit.ts';

const NOTES = `table: notes
label: Note
path: /support/notes
operations: [list, show]
creator: true
fields:
  title: { type: string, required: true, maxLength: 20 }
  priority: { type: integer, default: 3 }
  state: { type: string, readOnly: true, enum: [open, closed], default: open }
  summary: { type: string, readOnly: true, nullable: true }
  tag_id: { type: integer, readOnly: true, nullable: true }
  tag_name: { type: string, related: tag.name }
relations:
  tag: { kind: belongsTo, resource: support/tags, foreignKey: tag_id }
behaviours:
  beforeCreate: [test.summarize]
`;
const TAGS = `table: tags
label: Tag
path: /support/tags
operations: [list]
search: false
fields:
  name: { type: string, required: true }
`;

// The creator relation of `creator: true` points at support/users.
const USERS = `table: users
label: User
path: /support/users
operations: [list]
search: false
timestamps: false
fields:
  name: { type: string }
`;

const test = suite('record writer');
let dir: string;
let knex: Knex;
let registry: Registry;
const behaviours: Behaviours = {
  // The target's own hook: it must run for a behaviour's write as for a client's.
  hooks: {
    'test.summarize': ({ values }) => {
      values.summary = String(values.title).toUpperCase();
    },
  },
  batches: {},
  computed: {},
  subqueries: {},
  actions: {},
};

/** A unit of writing as a request's: its transaction, its change set, the writers a behaviour gets. */
async function inUnit<T>(work: (records: Records, changes: ChangeSet, trx: Knex.Transaction) => Promise<T>): Promise<{ result: T; changes: ChangeSet }> {
  let changes!: ChangeSet;
  const result = await testUnits(knex, registry, behaviours).run((unit) => {
    changes = unit.changes;
    return work(unit.context.records, unit.changes, unit.trx);
  });
  return { result, changes };
}

async function refused(work: (records: Records) => Promise<unknown>): Promise<Record<string, string[]>> {
  try {
    await inUnit(work);
  } catch (error) {
    if (error instanceof ValidationError) return error.errors;
    throw error;
  }
  throw new Error('the write was accepted, but it should have been refused');
}

test.before(async () => {
  registerFormats();
  dir = mkdtempSync(join(tmpdir(), 'erp-record-writer-'));
  for (const [path, text] of Object.entries({ 'support/notes.yaml': NOTES, 'support/tags.yaml': TAGS, 'support/users.yaml': USERS })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  registry = loadRegistry(dir, new Set(['test.summarize']));
  knex = knexFactory({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
  await knex.schema.createTable('tags', (table) => {
    table.increments('id');
    table.string('name');
    table.datetime('created_at');
    table.datetime('updated_at');
  });
  await knex.schema.createTable('notes', (table) => {
    table.increments('id');
    table.string('title');
    table.integer('priority');
    table.string('state');
    table.string('summary');
    table.integer('tag_id');
    table.string('tag_name');
    table.integer('creator_id');
    table.datetime('created_at');
    table.datetime('updated_at');
  });
  await addSearchIndex(knex, 'notes'); // a note is searched by its title
  await knex('tags').insert({ name: 'Urgent' });
});

test.after(async () => {
  await knex?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

test('a created record gets the target’s defaults, hook, creator, timestamps and a change in the unit’s feed', async () => {
  const { result: id, changes } = await inUnit((records) => records('support/notes').create({ title: 'Call back', state: 'closed' }));
  const row = await knex('notes').where('id', id).first();
  assert.is(row.priority, 3, 'the field default');
  assert.is(row.state, 'open', 'a client-style write does not set a readOnly field: the default stands');
  assert.is(row.summary, 'CALL BACK', 'the target’s beforeCreate hook ran');
  assert.is(row.creator_id, USER.id, 'the acting user is the creator');
  assert.ok(row.created_at && row.updated_at, 'timestamps');
  assert.equal(
    changes.pending.map(({ resource, id: changed, kind }) => ({ resource, id: changed, kind })),
    [{ resource: 'support/notes', id, kind: 'created' }],
  );
});

test('the target’s validation refuses a bad body (422 naming its fields) and nothing is written', async () => {
  const before = Number((await knex('notes').count({ n: '*' }).first())!.n);
  assert.equal(Object.keys(await refused((records) => records('support/notes').create({ priority: 'high' }))).sort(), ['priority', 'title']);
  assert.equal(Object.keys(await refused((records) => records('support/notes').create({ title: 'x'.repeat(21) }))), ['title']);
  assert.is(Number((await knex('notes').count({ n: '*' }).first())!.n), before);
});

test('a system write sets readOnly fields, checked by type, enum and the record their relation names', async () => {
  const { result: id } = await inUnit((records) => records('support/notes').create({ title: 'Done', state: 'closed', tag_id: 1 }, { system: true }));
  assert.equal(await knex('notes').where('id', id).first('state', 'tag_id'), { state: 'closed', tag_id: 1 });
  assert.equal(Object.keys(await refused((records) => records('support/notes').create({ title: 'Odd', state: 'lost' }, { system: true }))), ['state']);
  assert.equal(Object.keys(await refused((records) => records('support/notes').create({ title: 'Odd', tag_id: 99 }, { system: true }))), ['tag_id']);
  // The engine's own columns stay the engine's, even for a system write.
  try {
    await inUnit((records) => records('support/notes').create({ title: 'Odd', creator_id: 1 }, { system: true }));
    assert.unreachable('creator_id was accepted');
  } catch (error) {
    assert.match(String(error), /creator_id is the engine's to write/);
  }
});

test('an update goes through validation and records the fields it changed; a set-based update records every row it changed', async () => {
  const { result: id } = await inUnit((records) => records('support/notes').create({ title: 'Draft' }));
  await knex('notes').where('id', id).update({ updated_at: '2000-01-01 00:00:00' });
  const { changes } = await inUnit((records) => records('support/notes').update(id, { title: 'Final', priority: 3 }));
  assert.equal(changes.pending, [{ resource: 'support/notes', id, kind: 'updated', changed: ['title'] }]);
  assert.is.not((await knex('notes').where('id', id).first()).updated_at, '2000-01-01 00:00:00');
  assert.equal(Object.keys(await refused((records) => records('support/notes').update(id, { title: null }))), ['title']);

  const all = (await knex('notes').pluck('id')).map(Number);
  const { result: updated, changes: many } = await inUnit((records) => records('support/notes').updateMany((query) => query.where('priority', 3), { priority: 1 }));
  assert.equal(updated.sort(), all.sort());
  assert.equal(await knex('notes').distinct('priority').pluck('priority'), [1]);
  assert.equal(
    many.pending.map(({ id: changed, kind, changed: fields }) => ({ id: changed, kind, fields })),
    all.map((changed) => ({ id: changed, kind: 'updated', fields: ['priority'] })),
  );
});

test('every writer keeps the words a search finds a record by: create, update, updateMany and updateEach', async () => {
  const words = async (id: number) => (await knex('notes').where('id', id).first()).search_words;
  const { result: id } = await inUnit((records) => records('support/notes').create({ title: 'Café Zürich' }));
  assert.is(await words(id), 'wcafe wzurich');
  await inUnit((records) => records('support/notes').update(id, { title: 'Ärzte Bern' }));
  assert.is(await words(id), 'warzte wbern');
  await inUnit(async (records) => void (await records('support/notes').updateMany([id], { title: 'Straße' })));
  assert.is(await words(id), 'wstrasse');
  await inUnit((records) => records('support/notes').updateEach([{ id, values: { title: 'Øresund', priority: 2 } }]));
  assert.is(await words(id), 'woresund');
  // A set-based write of other fields leaves them as they are.
  await inUnit(async (records) => void (await records('support/notes').updateMany([id], { priority: 1 })));
  assert.is(await words(id), 'woresund');
});

test('a set-based update brings along the copies other records keep of what it sets, each copy in the change feed', async () => {
  const tag = Number((await knex('tags').first('id')).id);
  const { result: id } = await inUnit((records) => records('support/notes').create({ title: 'Tagged', tag_id: tag }, { system: true }));
  const tagged = (await knex('notes').where('tag_id', tag).orderBy('id').pluck('id')).map(Number);
  assert.ok(tagged.includes(id));
  const copies = async () => (await knex('notes').where('tag_id', tag).pluck('tag_name')) as string[];
  assert.equal(
    await copies(),
    tagged.map(() => 'Urgent'),
  );
  for (const [name, write] of [
    ['Later', async (records: Records) => void (await records('support/tags').updateMany([tag], { name: 'Later' }))],
    ['Urgent', (records: Records) => records('support/tags').updateEach([{ id: tag, values: { name: 'Urgent' } }])],
  ] as const) {
    const { changes } = await inUnit(write);
    assert.equal(
      await copies(),
      tagged.map(() => name),
    );
    assert.equal(changes.pending, [
      { resource: 'support/tags', id: tag, kind: 'updated', changed: ['name'] },
      ...tagged.map((note) => ({ resource: 'support/notes', id: note, kind: 'updated', changed: ['tag_name'] })),
    ]);
  }
});

test.run();
