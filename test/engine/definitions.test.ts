// Boot failures on bad resource definitions: each names the file, the place in it, the line and
// what to do about it. No database.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DefinitionError, type DefinitionProblem } from '../../engine/definition/definition-error.ts';
import { loadRegistry } from '../../engine/keys/registry.ts';
import type { Registry } from '../../engine/definition/registry.ts';
import { registerFormats } from '../../engine/schema/string-formats.ts';
import { loadResources } from '../../src/app/build-app.ts';

const test = suite('definitions');

const BEHAVIOURS = new Set(['support.stampNumber', 'support.inverseRate']);
const dirs: string[] = [];

// Lines 1-8; fixtures append from line 9 on.
const BASE = `table: things
label: Thing
path: /support/things
operations: [list, create, show, update, delete]
fields:
  name: { type: string, required: true, maxLength: 100 }
  customer: { type: string, maxLength: 100 }
  active: { type: boolean }
`;

interface Fixture {
  dir: string;
  /** The file name as the error names it (relative to the working directory). */
  file(path: string): string;
}

function writeFixture(files: Record<string, string>): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'erp-definitions-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return { dir, file: (path) => relative(process.cwd(), join(dir, path)) };
}

function load(files: Record<string, string>): Registry {
  return loadRegistry(writeFixture(files).dir, BEHAVIOURS);
}

function failure(files: Record<string, string>): { error: DefinitionError; fixture: Fixture } {
  const fixture = writeFixture(files);
  try {
    loadRegistry(fixture.dir, BEHAVIOURS);
  } catch (error) {
    if (error instanceof DefinitionError) return { error, fixture };
    throw error;
  }
  throw new assert.Assertion({ message: 'the definitions loaded, but they should have been refused', operator: 'throws', expects: 'DefinitionError', actual: 'loaded' });
}

/** Asserts the one problem reported and that the boot message shows it as `file:line: at: message`. */
function onlyProblem(files: Record<string, string>, path = 'support/things.yaml'): { problem: DefinitionProblem; message: string; file: string } {
  const { error, fixture } = failure(files);
  assert.is(error.problems.length, 1, `expected one problem, got:\n${error.message}`);
  const problem = error.problems[0]!;
  const file = fixture.file(path);
  assert.is(problem.file, file);
  const shown = `  ${file}${problem.line ? `:${problem.line}` : ''}: ${problem.at ? `${problem.at}: ` : ''}${problem.message}`;
  assert.ok(error.message.startsWith('Invalid resource definitions:\n'), error.message);
  assert.ok(error.message.includes(shown), error.message);
  return { problem, message: error.message, file };
}

test.before(() => {
  registerFormats();
});

test.after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test('a minimal valid definition loads and gets its defaults', () => {
  const registry = load({ 'support/things.yaml': BASE });
  const def = registry.get('support/things');
  assert.is(def.name, 'support/things');
  assert.is(def.module, 'support');
  assert.is(def.table, 'things');
  assert.equal([...def.fields.keys()], ['id', 'name', 'customer', 'active', 'created_at', 'updated_at']);
  const id = def.fields.get('id')!;
  assert.is(id.type, 'integer');
  assert.is(id.writable, false);
  for (const column of ['created_at', 'updated_at']) {
    assert.is(def.fields.get(column)!.type, 'datetime');
    assert.is(def.fields.get(column)!.writable, false);
  }
  assert.is(def.fields.get('name')!.nullable, false, 'a required field is not nullable');
  assert.is(def.fields.get('customer')!.nullable, true, 'an optional field is nullable');
  assert.is(def.fields.get('name')!.label, 'name');
  assert.is(def.softDelete, false);
  assert.is(def.timestamps, true);
  assert.equal(def.sorts, ['id']);
  assert.equal(def.defaultSort, [{ name: 'id', descending: false }]);
  assert.equal(def.includes, []);
  assert.equal(def.messages, {
    created: 'Thing created successfully.',
    updated: 'Thing updated successfully.',
    deleted: 'Thing deleted successfully.',
    restored: 'Thing restored successfully.',
    forceDeleted: 'Thing permanently deleted.',
  });
  assert.equal([...def.operations], ['list', 'create', 'show', 'update', 'delete']);
  assert.throws(() => registry.get('support/nothing'), /Unknown resource support\/nothing/);
});

test('softDelete, creator, a parent and custom messages add their columns and keep the messages given', () => {
  const registry = load({
    'support/things.yaml': `${BASE}softDelete: true\ncreator: true\nmessages:\n  created: Your thing is ready.\n`,
    'support/parts.yaml': `table: parts
label: Part
path: /support/things/{thing_id}/parts
parent: { resource: support/things, param: thing_id, foreignKey: thing_id }
operations: [list, create]
timestamps: false
fields:
  name: { type: string }
`,
    'support/users.yaml': `table: users\nlabel: User\npath: /support/users\noperations: [list]\nfields:\n  name: { type: string }\n`,
  });
  const things = registry.get('support/things');
  assert.ok(things.fields.has('deleted_at'));
  assert.is(things.fields.get('deleted_at')!.nullable, true);
  assert.ok(things.fields.has('creator_id'));
  assert.is(things.fields.get('creator_id')!.writable, false);
  assert.is(things.relations.get('creator')!.resource, 'support/users');
  assert.is(things.messages.created, 'Your thing is ready.');
  assert.is(things.messages.updated, 'Thing updated successfully.');
  const parts = registry.get('support/parts');
  assert.ok(parts.fields.has('thing_id'), 'the parent foreign key becomes a field');
  assert.is(parts.fields.get('thing_id')!.writable, false);
  assert.not.ok(parts.fields.has('created_at'), 'timestamps: false has no timestamps');
  assert.is(registry.all().length, 3);
});

test('an unknown key in a field names the key, its line and the key meant', () => {
  const { problem, message } = onlyProblem({
    'support/things.yaml': BASE.replace('required: true, maxLength: 100', 'required: true, maxlen: 100'),
  });
  assert.is(problem.at, 'fields.name.maxlen');
  assert.is(problem.line, 6);
  assert.match(problem.message, /unknown key/);
  assert.match(message, /maxLength/, 'the message points at the key meant');
});

test('an unknown top-level key names the key, its line and the key meant', () => {
  const { problem } = onlyProblem({ 'support/things.yaml': `${BASE}filter:\n  name:\n    kind: partial\n` });
  assert.is(problem.at, 'filter');
  assert.is(problem.line, 9);
  assert.match(problem.message, /unknown key/);
  assert.match(problem.message, /did you mean "filters"\?/);
});

test('an unknown key with no close match lists the keys allowed there', () => {
  const { problem } = onlyProblem({ 'support/things.yaml': BASE.replace('{ type: boolean }', '{ type: boolean, colour: red }') });
  assert.is(problem.at, 'fields.active.colour');
  assert.is(problem.line, 8);
  assert.match(problem.message, /unknown key/);
  assert.match(problem.message, /maxLength/);
  assert.match(problem.message, /required/);
});

test('a field name that is not snake_case is refused, and its contents are not skipped', () => {
  const { error, fixture } = failure({ 'support/things.yaml': `${BASE}  Due-Date: { type: dat, maxlen: 3 }\n` });
  const file = fixture.file('support/things.yaml');
  assert.is(error.problems.length, 1, error.message);
  assert.ok(error.message.includes(`${file}:9: fields.Due-Date: "Due-Date" is not a valid name (must match ^[a-z][a-z0-9_]*$)`), error.message);
});

test('filter and relation names are checked the same way', () => {
  const { error } = failure({
    'support/things.yaml': `${BASE}  parent_id: { type: integer }\nrelations:\n  Parent: { kind: belongsTo, resource: support/things, foreignKey: parent_id }\nfilters:\n  By-Name: { kind: partial, field: name }\n`,
  });
  assert.equal(
    error.problems.map((p) => [p.at, p.line]),
    [
      ['relations.Parent', 11],
      ['filters.By-Name', 13],
    ],
  );
  for (const problem of error.problems) assert.match(problem.message, /is not a valid name/);
});

test('a missing required key is named', () => {
  const { problem } = onlyProblem({ 'support/things.yaml': BASE.replace('label: Thing\n', '') });
  assert.is(problem.at, 'label');
  assert.match(problem.message, /is required/);
});

test('a value of the wrong kind names the value given', () => {
  const { problem } = onlyProblem({ 'support/things.yaml': BASE.replace('{ type: boolean }', '{ type: bool }') });
  assert.is(problem.at, 'fields.active.type');
  assert.is(problem.line, 8);
  assert.match(problem.message, /"bool"/);
});

test('a filter on a field that does not exist suggests the field meant', () => {
  const { problem, message } = onlyProblem({ 'support/things.yaml': `${BASE}filters:\n  name: { kind: partial }\n  custmer:\n    kind: exact\n` });
  assert.is(problem.at, 'filters.custmer');
  assert.is(problem.line, 11, 'the line of the filter, not of its contents');
  assert.match(problem.message, /unknown field "custmer"/);
  assert.match(message, /did you mean "customer"\?/);
});

test('a filter naming another field that does not exist is refused', () => {
  const { problem } = onlyProblem({ 'support/things.yaml': `${BASE}filters:\n  who: { kind: exact, field: custome }\n` });
  assert.is(problem.at, 'filters.who');
  assert.is(problem.line, 10);
  assert.match(problem.message, /unknown field "custome", did you mean "customer"\?/);
});

test('a boolean filter on a string field is refused', () => {
  const { problem } = onlyProblem({ 'support/things.yaml': `${BASE}filters:\n  name: { kind: boolean }\n` });
  assert.is(problem.at, 'filters.name');
  assert.match(problem.message, /boolean filter needs a boolean field/);
});

test('a sort on a field that does not exist is refused', () => {
  const { problem } = onlyProblem({ 'support/things.yaml': `${BASE}sorts: [id, nmae]\n` });
  assert.is(problem.at, 'sorts.1');
  assert.is(problem.line, 9);
  assert.match(problem.message, /unknown field "nmae", did you mean "name"\?/);
});

test('an index on a column the table does not store is refused with the column meant; a long name and a repeat too', () => {
  const unknown = onlyProblem({ 'support/things.yaml': `${BASE}indexes: [[active, nmae]]\n` });
  assert.is(unknown.problem.at, 'indexes.0');
  assert.is(unknown.problem.line, 9);
  assert.match(unknown.problem.message, /"nmae" is not a stored column of things, did you mean "name"\?/);
  const repeated = onlyProblem({ 'support/things.yaml': `${BASE}indexes: [[active, name], [active, name]]\n` });
  assert.is(repeated.problem.at, 'indexes.1');
  assert.match(repeated.problem.message, /indexed twice/);
  const long = onlyProblem({
    'support/things.yaml': `${BASE}  a_rather_long_column_name_here: { type: string }\n  another_long_column_name: { type: string }\nindexes: [[a_rather_long_column_name_here, another_long_column_name]]\n`,
  });
  assert.match(long.problem.message, /things_a_rather_long_column_name_here_another_long_column_name_index is longer than the 64 characters MySQL allows/);
  assert.equal(load({ 'support/things.yaml': `${BASE}indexes: [[active, name]]\n` }).get('support/things').indexes, [['active', 'name']]);
});

test('search: the display field and codes by default; a declared field must be stored text, not a copy; every definition on a table stores the words of all', () => {
  assert.equal(load({ 'support/things.yaml': BASE }).get('support/things').search, ['name']);
  assert.equal(load({ 'support/things.yaml': `${BASE}search: [customer, name]\n` }).get('support/things').search, ['customer', 'name']);
  assert.equal(load({ 'support/things.yaml': `${BASE}search: false\n` }).get('support/things').search, []);
  const typo = onlyProblem({ 'support/things.yaml': `${BASE}search: [custmer]\n` });
  assert.is(typo.problem.at, 'search.0');
  assert.is(typo.problem.line, 9);
  assert.match(typo.problem.message, /"custmer" is not a stored text field of this resource, did you mean "customer"\?/);
  assert.match(onlyProblem({ 'support/things.yaml': `${BASE}search: [active]\n` }).problem.message, /"active" is not a stored text field/);
  const copy = onlyProblem({
    'support/owners.yaml': BASE.replace(/things/g, 'owners').replace('label: Thing', 'label: Owner'),
    'support/things.yaml': `${BASE}  owner_id: { type: integer, references: support/owners }\n  owner_name: { type: string, related: owner.name }\nrelations:\n  owner: { kind: belongsTo, resource: support/owners, foreignKey: owner_id }\nsearch: [owner_name]\n`,
  });
  assert.match(copy.problem.message, /"owner_name" is rewritten by other records' writes/);
  const shared = load({
    'support/things.yaml': BASE,
    'support/old-things.yaml': `${BASE.replace('/support/things', '/support/old-things').replace('label: Thing', 'label: Old thing')}search: [customer]\n`,
  });
  assert.equal(shared.get('support/things').searchColumns, ['customer', 'name'], 'one row, one set of words, whichever definition writes it');
  assert.equal(shared.get('support/old-things').search, ['customer']);
  // A tree's full name is rewritten in bulk when an ancestor is renamed: never searched by default, even as the display field.
  const tree = `table: places
label: Place
path: /support/places
operations: [list, create, show, update]
fields:
  title: { type: string, required: true }
  full_name: { type: string, readOnly: true }
  code: { type: string }
  parent_id: { type: integer, references: support/places }
  parent_path: { type: string, readOnly: true }
relations:
  parent: { kind: belongsTo, resource: support/places, foreignKey: parent_id }
tree: { parent: parent_id, path: parent_path, fullName: { field: full_name, from: title, separator: / } }
`;
  assert.equal(load({ 'support/places.yaml': tree }).get('support/places').search, ['code']);
});

const WITH_RELATION = `${BASE}  parent_id: { type: integer, references: support/things }
relations:
  parent: { kind: belongsTo, resource: support/things, foreignKey: parent_id }
`; // lines 9-11

test('an include naming no relation is refused with the relation meant', () => {
  const { problem } = onlyProblem({ 'support/things.yaml': `${WITH_RELATION}includes:\n  - parent\n  - parnt\n` });
  assert.is(problem.at, 'includes.1');
  assert.is(problem.line, 14);
  assert.match(problem.message, /"parnt" names no relation/);
  assert.match(problem.message, /did you mean "parent"\?/);
});

test('a nested include names the segment that is no relation', () => {
  const { problem } = onlyProblem({ 'support/things.yaml': `${WITH_RELATION}includes: [parent.ownr]\n` });
  assert.is(problem.at, 'includes.0');
  assert.is(problem.line, 12);
  assert.match(problem.message, /"parent\.ownr" names no relation \("ownr" is not a relation of support\/things\)/);
});

test('maxLength: 0 is refused', () => {
  const { problem } = onlyProblem({ 'support/things.yaml': BASE.replace('maxLength: 100 }\n  customer', 'maxLength: 0 }\n  customer') });
  assert.is(problem.at, 'fields.name.maxLength');
  assert.is(problem.line, 6);
  assert.match(problem.message, /greater or equal to 1/);
  assert.match(problem.message, /got 0/);
});

test('a minimum greater than the maximum is refused', () => {
  const { problem } = onlyProblem({ 'support/things.yaml': `${BASE}  amount: { type: integer, minimum: 10, maximum: 1 }\n` });
  assert.is(problem.at, 'fields.amount.minimum');
  assert.is(problem.line, 9);
  assert.match(problem.message, /minimum is greater than maximum/);
});

test('limits that do not apply to the field type are refused', () => {
  const { error } = failure({
    'support/things.yaml': `${BASE}  count: { type: integer, maxLength: 3 }\n  price: { type: decimal }\n`,
  });
  const places = error.problems.map((p) => `${p.at}: ${p.message}`);
  assert.ok(places.includes('fields.count.maxLength: maxLength applies to string and text fields'), places.join('\n'));
  assert.ok(places.includes('fields.price: a decimal field needs a scale'), places.join('\n'));
});

test('a relation to an unknown resource is refused with the resource meant', () => {
  const { problem } = onlyProblem({
    'support/things.yaml': `${BASE}  parent_id: { type: integer }\nrelations:\n  parent: { kind: belongsTo, resource: support/thing, foreignKey: parent_id }\n`,
  });
  assert.is(problem.at, 'relations.parent.resource');
  assert.is(problem.line, 11);
  assert.match(problem.message, /unknown resource "support\/thing", did you mean "support\/things"\?/);
});

test('a relation whose foreign key is no field is refused', () => {
  const { problem } = onlyProblem({
    'support/things.yaml': `${BASE}relations:\n  parent: { kind: belongsTo, resource: support/things, foreignKey: parent_id }\n`,
  });
  assert.is(problem.at, 'relations.parent.foreignKey');
  assert.match(problem.message, /"parent_id" is not a field of support\/things/);
});

test('a reference to an unknown resource is refused', () => {
  const { problem } = onlyProblem({ 'support/things.yaml': `${BASE}  country_id: { type: integer, references: support/countries }\n` });
  assert.is(problem.at, 'fields.country_id.references');
  assert.is(problem.line, 9);
  assert.match(problem.message, /unknown resource "support\/countries"/);
});

test('a walkthrough naming an unknown action, resource or walked resource is refused in walkthroughs.yaml', () => {
  const action = onlyProblem({ 'support/things.yaml': BASE, 'walkthroughs.yaml': '# comment\nsupport/things:\n  records: [{ actions: [approve] }]\n' }, 'walkthroughs.yaml');
  assert.is(action.problem.at, 'support/things.records.0.actions');
  assert.is(action.problem.line, 3);
  assert.match(action.problem.message, /"approve" is not an action of this resource/);
  const after = onlyProblem({ 'support/things.yaml': BASE, 'walkthroughs.yaml': 'support/things: { after: [support/nothings] }\n' }, 'walkthroughs.yaml');
  assert.is(after.problem.at, 'support/things.after.0');
  assert.match(after.problem.message, /unknown resource "support\/nothings"/);
  const walked = onlyProblem({ 'support/things.yaml': BASE, 'walkthroughs.yaml': 'support/thing: { after: [support/things] }\n' }, 'walkthroughs.yaml');
  assert.is(walked.problem.at, 'support/thing');
  assert.match(walked.problem.message, /unknown resource "support\/thing", did you mean "support\/things"/);
});

test('a definition that extends another starts from its keys; a null removes one; a loop or a missing base is refused', () => {
  const registry = load({
    'support/base.yaml': `abstract: true\ntable: things\noperations: [list, show]\nfields:\n  name: { type: string, required: true, maxLength: 100 }\n  code: { type: string, maxLength: 10 }\nfilters:\n  name: { kind: partial }\n  code: { kind: exact }\n`,
    'support/things.yaml': `extends: support/base\nlabel: Thing\npath: /support/things\nfields:\n  name: { maxLength: 50 }\n  active: { type: boolean }\nfilters:\n  code: null\n`,
  });
  assert.equal(
    registry.all().map((def) => def.name),
    ['support/things'],
    'a base serves nothing',
  );
  const things = registry.get('support/things');
  assert.equal([...things.fields.keys()], ['id', 'name', 'code', 'active', 'created_at', 'updated_at'], 'the base’s fields first, in order');
  assert.equal([things.fields.get('name')!.maxLength, things.fields.get('name')!.required], [50, true], 'a field’s keys merge one by one');
  assert.equal([...things.filters.keys()], ['name'], 'null removes the base’s filter');
  assert.equal([...things.operations], ['list', 'show']);
  const missing = onlyProblem({ 'support/things.yaml': `extends: support/nothing\n${BASE}` });
  assert.is(missing.problem.at, 'extends');
  assert.match(missing.problem.message, /extends support\/nothing, which is not defined/);
  const loop = failure({ 'support/a.yaml': `extends: support/b\n${BASE}`, 'support/b.yaml': `extends: support/a\nabstract: true\n` });
  assert.match(loop.error.message, /extends itself through/);
});

test('a writable field that is a belongsTo relation’s foreign key references the relation’s resource without saying so', () => {
  const registry = load({
    'support/owners.yaml': BASE.replace('things', 'owners').replace('things', 'owners').replace('Thing', 'Owner'),
    'support/things.yaml': `${BASE}  owner_id: { type: integer }\n  shown_owner_id: { type: integer, readOnly: true }\nrelations:\n  owner: { kind: belongsTo, resource: support/owners, foreignKey: owner_id }\n  shownOwner: { kind: belongsTo, resource: support/owners, foreignKey: shown_owner_id }\n`,
  });
  const things = registry.get('support/things');
  assert.is(things.fields.get('owner_id')!.references, 'support/owners');
  assert.is(things.fields.get('shown_owner_id')!.references, undefined, 'a read-only key is not validated: it references nothing');
});

test('an unknown behaviour name is refused with the behaviour meant', () => {
  const { problem } = onlyProblem({ 'support/things.yaml': `${BASE}behaviours:\n  beforeCreate: [support.stampNumbr]\n` });
  assert.is(problem.at, 'behaviours.beforeCreate.0');
  assert.is(problem.line, 10);
  assert.match(problem.message, /unknown behaviour "support\.stampNumbr", did you mean "support\.stampNumber"\?/);
});

test('an invalidator the application does not register is refused by its place; a registered one loads', () => {
  const text = `${BASE}invalidates: [acess]\n`;
  const { problem } = onlyProblem({ 'support/things.yaml': text });
  assert.is(problem.at, 'invalidates.0');
  assert.is(problem.line, 9);
  assert.match(problem.message, /unknown invalidator "acess"/);
  const registered = loadRegistry(writeFixture({ 'support/things.yaml': `${BASE}invalidates: [access]\n` }).dir, BEHAVIOURS, new Set(), new Set(['access']));
  assert.equal(registered.get('support/things').invalidates, ['access']);
  const misspelt = (() => {
    try {
      loadRegistry(writeFixture({ 'support/things.yaml': text }).dir, BEHAVIOURS, new Set(), new Set(['access']));
    } catch (error) {
      return (error as DefinitionError).problems[0]!.message;
    }
  })();
  assert.match(misspelt ?? 'loaded', /unknown invalidator "acess", did you mean "access"\?/);
});

test('an unknown computed behaviour is refused', () => {
  const { problem } = onlyProblem({ 'support/things.yaml': `${BASE}  inverse: { type: number, computed: support.nothingLikeIt }\n` });
  assert.is(problem.at, 'fields.inverse.computed');
  assert.is(problem.line, 9);
  assert.match(problem.message, /unknown behaviour "support\.nothingLikeIt"/);
});

test('restore and forceDelete without softDelete are refused', () => {
  const { error, fixture } = failure({ 'support/things.yaml': BASE.replace('delete]', 'delete, restore, forceDelete]') });
  const file = fixture.file('support/things.yaml');
  assert.is(error.problems.length, 2, error.message);
  assert.ok(error.message.includes(`${file}:4: operations: restore needs softDelete: true`), error.message);
  assert.ok(error.message.includes(`${file}:4: operations: forceDelete needs softDelete: true`), error.message);
  // The same file with softDelete loads.
  assert.ok(load({ 'support/things.yaml': `${BASE.replace('delete]', 'delete, restore, forceDelete]')}softDelete: true\n` }).get('support/things'));
});

test("a scope comparison ({'>': 0}) needs a readOnly field whose default satisfies it; a malformed one is refused", () => {
  const rank = (field: string) => `${BASE}  rank: ${field}\nscope:\n  rank: { '>': 0 }\n`;
  const def = load({ 'support/things.yaml': rank('{ type: integer, readOnly: true, default: 1 }') }).get('support/things');
  assert.equal(def.scope, { rank: { '>': 0 } });
  assert.match(
    onlyProblem({ 'support/things.yaml': rank('{ type: integer, readOnly: true }') }).problem.message,
    /a created record would fall outside the scope: give "rank" a default that is > 0/,
  );
  assert.match(onlyProblem({ 'support/things.yaml': rank('{ type: integer, readOnly: true, default: 0 }') }).problem.message, /default that is > 0/);
  assert.match(onlyProblem({ 'support/things.yaml': rank('{ type: integer, default: 1 }') }).problem.message, /"rank" is compared \(> 0\): the field must be readOnly/);
  const twoOperators = failure({ 'support/things.yaml': `${BASE}  rank: { type: integer, readOnly: true, default: 1 }\nscope:\n  rank: { '>': 0, '<': 9 }\n` });
  assert.match(twoOperators.error.message, /scope/);
  const unknownOperator = failure({ 'support/things.yaml': `${BASE}  rank: { type: integer, readOnly: true, default: 1 }\nscope:\n  rank: { like: 1 }\n` });
  assert.match(unknownOperator.error.message, /scope/);
});

test('a trashed filter without softDelete is refused', () => {
  const { problem } = onlyProblem({ 'support/things.yaml': `${BASE}filters:\n  trashed: { kind: trashed }\n` });
  assert.is(problem.at, 'filters.trashed');
  assert.is(problem.line, 10);
  assert.match(problem.message, /trashed filter needs softDelete: true/);
});

test('a nested path placeholder without a parent is refused', () => {
  const { problem } = onlyProblem({ 'support/things.yaml': BASE.replace('path: /support/things', 'path: /support/owners/{owner_id}/things') });
  assert.is(problem.at, 'path');
  assert.is(problem.line, 3);
  assert.match(problem.message, /placeholder needs a parent/);
});

test('a parent whose param is not in the path is refused', () => {
  const { problem } = onlyProblem({
    'support/things.yaml': BASE.replace(
      'path: /support/things\n',
      'path: /support/things/{id}/parts\nparent: { resource: support/things, param: thing_id, foreignKey: thing_id }\n',
    ),
  });
  assert.is(problem.at, 'parent.param');
  assert.is(problem.line, 4);
  assert.match(problem.message, /no \{thing_id\} placeholder/);
});

test('two resources with the same path are refused, naming both files', () => {
  const { error, fixture } = failure({
    'support/things.yaml': BASE,
    'sales/things.yaml': BASE.replace('table: things', 'table: sales_things'),
  });
  assert.is(error.problems.length, 1, error.message);
  const problem = error.problems[0]!;
  assert.is(problem.file, fixture.file('support/things.yaml'));
  assert.is(problem.at, 'path');
  assert.is(problem.line, 3);
  assert.ok(problem.message.includes(`the same path as ${fixture.file('sales/things.yaml')}`), problem.message);
});

test('paths that differ only in placeholder names are the same path', () => {
  const parent = (param: string) =>
    BASE.replace('path: /support/things\n', `path: /support/owners/{${param}}/things\nparent: { resource: support/owners, param: ${param}, foreignKey: owner_id }\n`);
  const { error } = failure({
    'support/owners.yaml': BASE.replace('table: things', 'table: owners').replace('path: /support/things', 'path: /support/owners'),
    'support/things.yaml': parent('owner_id'),
    'support/widgets.yaml': parent('owner').replace('table: things', 'table: widgets'),
  });
  assert.is(error.problems.length, 1, error.message);
  assert.match(error.problems[0]!.message, /the same path as .*support\/things\.yaml/);
});

test('a YAML syntax error names the file and the line', () => {
  const { error, fixture } = failure({
    'support/things.yaml': `table: things\nlabel: Thing\npath: /support/things\noperations: [list\nfields:\n  name: { type: string }\n`,
  });
  const file = fixture.file('support/things.yaml');
  assert.ok(error.problems.length >= 1, error.message);
  for (const problem of error.problems) {
    assert.is(problem.file, file);
    assert.match(problem.message, /^YAML: /);
    assert.type(problem.line, 'number');
    assert.ok(problem.line! >= 4 && problem.line! <= 7, `line ${problem.line}`);
    assert.ok(error.message.includes(`${file}:${problem.line}: YAML: `), error.message);
  }
});

test('a key given twice is a YAML error on its line', () => {
  const { error, fixture } = failure({ 'support/things.yaml': BASE.replace('label: Thing\n', 'label: Thing\nlabel: Other\n') });
  assert.is(error.problems.length, 1, error.message);
  assert.ok(error.message.includes(`${fixture.file('support/things.yaml')}:3: YAML: `), error.message);
  assert.match(error.message, /unique/);
});

test('a file not under <module>/ is refused', () => {
  const { error, fixture } = failure({
    'things.yaml': BASE,
    'support/extra/widgets.yaml': BASE.replace('table: things', 'table: widgets').replace('/support/things', '/support/widgets'),
    'support/things.yml': BASE,
  });
  assert.is(error.problems.length, 2, error.message);
  for (const path of ['things.yaml', 'support/extra/widgets.yaml']) {
    const problem = error.problems.find((p) => p.file === fixture.file(path));
    assert.ok(problem, `${path} is named:\n${error.message}`);
    assert.match(problem!.message, /resources\/<module>\/<name>\.yaml/);
  }
});

test('the same resource in a .yaml and a .yml file is refused, not half-loaded', () => {
  const { problem, message } = onlyProblem({ 'support/things.yaml': BASE, 'support/things.yml': BASE.replace('label: Thing', 'label: Other thing') }, 'support/things.yml');
  assert.match(problem.message, /support\/things again/);
  assert.match(message, /support\/things\.yaml/);
});

test('every problem of every file is reported at once', () => {
  const { error, fixture } = failure({
    'support/things.yaml': `${BASE}filters:\n  custmer: { kind: exact }\n`,
    'support/widgets.yaml': BASE.replace('table: things', 'table: widgets')
      .replace('/support/things', '/support/widgets')
      .replace('{ type: boolean }', '{ type: boolean, maxlen: 3 }'),
  });
  assert.is(error.problems.length, 2, error.message);
  assert.ok(error.message.includes(`${fixture.file('support/things.yaml')}:10: filters.custmer: `), error.message);
  assert.ok(error.message.includes(`${fixture.file('support/widgets.yaml')}:8: fields.active.maxlen: unknown key`), error.message);
});

test('files other than .yaml/.yml are ignored', () => {
  const registry = load({ 'support/things.yaml': BASE, 'support/README.md': '# not a definition', 'support/notes.txt': 'table: nope' });
  assert.equal(
    registry.all().map((def) => def.name),
    ['support/things'],
  );
});

test('the resources/ directory of the service loads', () => {
  const registry = loadResources();
  const names = registry
    .all()
    .map((def) => def.name)
    .sort();
  for (const name of [
    'support/banks',
    'support/companies',
    'support/countries',
    'support/currencies',
    'support/currency-rates',
    'support/states',
    'support/uom-categories',
    'support/uoms',
    'support/users',
  ]) {
    assert.ok(names.includes(name), `${name} is loaded`);
  }
  const banks = registry.get('support/banks');
  assert.is(banks.path, '/support/banks');
  assert.is(banks.softDelete, true);
  assert.ok(banks.operations.has('restore'));
  assert.is(banks.messages.created, 'Bank created successfully.');
  assert.is(banks.relations.get('creator')!.resource, 'support/users');
  const rates = registry.get('support/currency-rates');
  assert.is(rates.parent?.resource, 'support/currencies');
  assert.is(rates.fields.get('inverse_rate')!.stored, false, 'a computed field has no column');
});

test.run();
