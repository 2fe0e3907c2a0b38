// Boot failures on bad value rules (related, defaultFrom, referencesWhere on own values,
// checkCompany, stampedBy, nullMeans): each names the file, the place and the line. No database.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DefinitionProblem } from '../../engine/definition/definition-error.ts';
import { definitionFixtures, type LoadedFixture } from '../helpers/definition-fixtures.ts';

const test = suite('value rules in definitions');
const fixtures = definitionFixtures('erp-value-rules');

// An owner with a company, and a thing that points at it (lines 1-13 of things.yaml).
const OWNERS = `table: owners
label: Owner
path: /support/owners
operations: [list, create, show, update]
fields:
  name: { type: string, maxLength: 100 }
  company_id: { type: integer }
  area_id: { type: integer }
`;
const THINGS = `table: things
label: Thing
path: /support/things
operations: [list, create, show, update]
fields:
  name: { type: string, maxLength: 100 }
  done: { type: boolean }
  company_id: { type: integer }
  owner_id: { type: integer }
relations:
  owner: { kind: belongsTo, resource: support/owners, foreignKey: owner_id }
`;
/** `THINGS` with these field lines added after its fields (from line 10 on). */
const things = (fields: string) => THINGS.replace('relations:', `${fields}relations:`);

function load(files: Record<string, string>): LoadedFixture {
  return fixtures.load({ 'support/owners.yaml': OWNERS, ...files });
}

/** The one problem reported for support/things.yaml. */
function onlyProblem(fields: string): DefinitionProblem {
  const { fixture, problems } = load({ 'support/things.yaml': things(fields) });
  assert.ok(problems, 'the definitions loaded, but they should have been refused');
  assert.is(problems!.length, 1, JSON.stringify(problems));
  assert.is(problems![0]!.file, fixture('support/things.yaml'));
  return problems![0]!;
}

test.after(() => fixtures.removeAll());

test('every key loads when it names what exists; copies and stamps are read-only', () => {
  const { problems } = load({
    'support/things.yaml': things(`  owner_name: { type: string, related: owner.name }
  done_at: { type: datetime, stampedBy: done }
  area_id: { type: integer, defaultFrom: [owner.area_id, { first: support/owners, column: area_id, where: { company_id: { field: company_id } }, sort: '-name' }], defaultOnChange: true }
  other_id: { type: integer, references: support/owners, referencesWhere: { company_id: { field: company_id, orNull: true } }, referencesMessage: 'Not {owner.name}: {field}', checkCompany: true }
  label: { type: string, default: thing, nullMeans: default }
`),
  });
  assert.is(problems, undefined, JSON.stringify(problems));
});

test('a copy naming a missing relation or column stops the boot, naming the file and line', () => {
  const relation = onlyProblem('  owner_name: { type: string, related: ownr.name }\n');
  assert.equal([relation.at, relation.line], ['fields.owner_name.related', 10]);
  assert.match(relation.message, /"ownr" is not a belongsTo relation of this resource, did you mean "owner"\?/);
  const column = onlyProblem('  owner_name: { type: string, related: owner.nme }\n');
  assert.equal([column.at, column.line], ['fields.owner_name.related', 10]);
  assert.match(column.message, /"nme" is not a field of support\/owners, did you mean "name"\?/);
});

test('a defaultFrom naming a missing relation or column stops the boot, the entry of a list named', () => {
  const relation = onlyProblem('  area_id: { type: integer, defaultFrom: ownerr.area_id }\n');
  assert.equal([relation.at, relation.line], ['fields.area_id.defaultFrom', 10]);
  assert.match(relation.message, /"ownerr" is not a belongsTo relation/);
  const column = onlyProblem('  area_id:\n    type: integer\n    defaultFrom:\n      - { user: company }\n      - owner.areaa_id\n');
  assert.is(column.at, 'fields.area_id.defaultFrom.1');
  assert.is(column.line, 14);
  assert.match(column.message, /"areaa_id" is not a field of support\/owners, did you mean "area_id"\?/);
  const first = onlyProblem('  area_id: { type: integer, defaultFrom: { first: support/ownerz } }\n');
  assert.is(first.at, 'fields.area_id.defaultFrom.first');
  assert.match(first.message, /unknown resource "support\/ownerz", did you mean "support\/owners"\?/);
  const where = onlyProblem('  area_id: { type: integer, defaultFrom: { first: support/owners, where: { colour: red } } }\n');
  assert.is(where.at, 'fields.area_id.defaultFrom.where.colour');
  const nullMeans = onlyProblem('  label: { type: string, nullMeans: default }\n');
  assert.is(nullMeans.at, 'fields.label.nullMeans');
  assert.match(nullMeans.message, /needs a default or a defaultFrom/);
});

test('defaults that read each other in a loop are refused', () => {
  const { problems } = load({ 'support/things.yaml': things('  a: { type: integer, defaultFrom: b }\n  b: { type: integer, defaultFrom: a }\n') });
  assert.equal(
    problems?.map((problem) => [problem.at, problem.line]),
    [
      ['fields.a.defaultFrom', 10],
      ['fields.b.defaultFrom', 11],
    ],
  );
  assert.match(problems![0]!.message, /"a" is filled from itself/);
});

test('a domain on the own values must name what exists, its message too', () => {
  const own = onlyProblem('  other_id: { type: integer, references: support/owners, referencesWhere: { company_id: { field: compny_id } } }\n');
  assert.equal([own.at, own.line], ['fields.other_id.referencesWhere.company_id.field', 10]);
  assert.match(own.message, /"compny_id" is not a field of this resource, did you mean "company_id"\?/);
  const placeholder = onlyProblem('  other_id: { type: integer, references: support/owners, referencesWhere: { area_id: 1 }, referencesMessage: "Not {ownr.name}" }\n');
  assert.is(placeholder.at, 'fields.other_id.referencesMessage');
});

test('a stamp needs a boolean field to stamp it', () => {
  const stamp = onlyProblem('  done_at: { type: datetime, stampedBy: name }\n');
  assert.equal([stamp.at, stamp.line], ['fields.done_at.stampedBy', 10]);
  assert.match(stamp.message, /"name" is not a boolean field of this resource/);
});

test('checkCompany needs a company on both sides', () => {
  const { problems } = load({
    'support/things.yaml': things('  other_id: { type: integer, references: support/plain, checkCompany: true }\n'),
    'support/plain.yaml': 'table: plain\nlabel: Plain\npath: /support/plain\noperations: [list]\nfields:\n  name: { type: string }\n',
  });
  assert.equal(
    problems?.map((problem) => [problem.at, problem.message]),
    [['fields.other_id.checkCompany', 'support/plain has no company_id field']],
  );
});

test.run();
