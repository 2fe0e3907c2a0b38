// Boot failures on bad structure rules (append, tree, aggregate): each names the file, the place and the line.
// No database.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DefinitionProblem } from '../../engine/definition/definition-error.ts';
import { definitionFixtures } from '../helpers/definition-fixtures.ts';

const test = suite('structure rules in definitions');
const fixtures = definitionFixtures('erp-structure-rules');

// A thing (lines 1-8 of things.yaml), its extra fields from line 9 on.
const THINGS = `table: things
label: Thing
path: /support/things
operations: [list, create, show, update, delete]
fields:
  name: { type: string, maxLength: 100 }
  amount: { type: number }
  parent_id: { type: integer, references: support/things }
`;

const { load } = fixtures;

/** The one problem reported for support/things.yaml with these lines added (fields first, then top-level keys). */
function onlyProblem(fields: string, topLevel = ''): DefinitionProblem {
  const { fixture, problems } = load({ 'support/things.yaml': THINGS + fields + topLevel });
  assert.ok(problems, 'the definitions loaded, but they should have been refused');
  assert.is(problems!.length, 1, JSON.stringify(problems));
  assert.is(problems![0]!.file, fixture('support/things.yaml'));
  return problems![0]!;
}

test.after(() => fixtures.removeAll());

// Things own parts (lines 1-7 of parts.yaml).
const PARTS = `table: parts
label: Part
path: /support/parts
operations: [list, show]
fields:
  thing_id: { type: integer, references: support/things }
  weight: { type: number }
`;
const OWNING = `relations:
  parts: { kind: hasMany, resource: support/parts, foreignKey: thing_id }
`;

const TREE_FIELDS = `  parent_path: { type: string, readOnly: true }
  full_name: { type: string, readOnly: true }
  kind: { type: string, enum: [view, plain] }
`;
const TREE = `tree:
  parent: parent_id
  path: { field: parent_path, self: true }
  fullName: { field: full_name, from: name, separator: ' / ', nameOnlyWhere: { kind: view } }
  cycleMessage: Not under itself.
`;

test('every key loads when it is used as documented', () => {
  const { problems } = load({ 'support/things.yaml': `${THINGS}  sort: { type: integer, minimum: 0, append: true }\n${TREE_FIELDS}${TREE}` });
  assert.is(problems, undefined, JSON.stringify(problems));
  const { problems: per } = load({ 'support/things.yaml': `${THINGS}  sort: { type: integer, append: { per: parent_id } }\n${TREE_FIELDS}${TREE}` });
  assert.is(per, undefined, JSON.stringify(per));
  const { problems: short } = load({ 'support/things.yaml': `${THINGS}${TREE_FIELDS}tree: { parent: parent_id, path: parent_path }\n` });
  assert.is(short, undefined, JSON.stringify(short));
});

test('a tree names stored fields of its resource; the path and full name are read-only text', () => {
  const from = onlyProblem(TREE_FIELDS, TREE.replace('from: name', 'from: nme'));
  assert.equal([from.at, from.line, from.message], ['tree.fullName.from', 15, '"nme" is not a stored field of this resource']);
  const writable = onlyProblem(TREE_FIELDS.replace('parent_path: { type: string, readOnly: true }', 'parent_path: { type: string }'), TREE);
  assert.equal([writable.at, writable.line], ['tree.path', 14]);
  assert.match(writable.message, /"parent_path" is written by the engine: mark it readOnly: true/);
  const unknown = onlyProblem(TREE_FIELDS, `${TREE}  sideways: true\n`);
  assert.match(unknown.message, /unknown key/);
});

test('append needs a stored integer field that is not required', () => {
  const text = onlyProblem('  sort: { type: string, append: true }\n');
  assert.equal([text.at, text.line, text.message], ['fields.sort.append', 9, 'append applies to a stored integer field']);
  const required = onlyProblem('  sort: { type: integer, required: true, append: true }\n');
  assert.equal([required.at, required.line], ['fields.sort.append', 9]);
  assert.match(required.message, /cannot be required/);
  const per = onlyProblem('  sort: { type: integer, append: { per: owner_id } }\n');
  assert.equal([per.at, per.line, per.message], ['fields.sort.append', 9, 'per: "owner_id" is not a stored field of this resource']);
});

test('an aggregate counts or sums the stored columns of a hasMany relation, read-only', () => {
  const counts = "  parts_count: { type: integer, readOnly: true, aggregate: { count: parts, where: { weight: { '>': 0 }, thing.name: Bolt } } }\n";
  const fine = load({
    'support/parts.yaml': `${PARTS}relations:\n  thing: { kind: belongsTo, resource: support/things, foreignKey: thing_id }\n`,
    'support/things.yaml': THINGS + counts + OWNING,
  });
  assert.is(fine.problems, undefined, JSON.stringify(fine.problems));
  const cases: Array<[string, string, string]> = [
    ['  total: { type: number, readOnly: true, aggregate: { sum: parts.colour } }\n', 'fields.total.aggregate.sum', '"colour" is not a field of support/parts'],
    ['  total: { type: number, aggregate: { sum: parts.weight } }\n', 'fields.total.aggregate', 'an aggregate field is read-only: add readOnly: true'],
    ['  total: { type: number, readOnly: true, aggregate: { sum: parent.weight } }\n', 'fields.total.aggregate.sum', '"parent" is not a hasMany relation of this resource'],
    ['  total: { type: number, readOnly: true, aggregate: { count: parts, sum: parts.weight } }\n', 'fields.total.aggregate', 'an aggregate is a count or a sum: give one of them'],
    [
      '  total: { type: integer, readOnly: true, aggregate: { count: parts, where: { weight: "1\' OR 1=1" } } }\n',
      'fields.total.aggregate.where.weight',
      'only plain words and numbers: letters, digits, spaces and _ . : / -',
    ],
  ];
  for (const [field, at, message] of cases) {
    const { fixture, problems } = load({ 'support/parts.yaml': PARTS, 'support/things.yaml': THINGS + field + OWNING });
    assert.equal(
      problems?.map((found) => [found.file, found.at, found.message]),
      [[fixture('support/things.yaml'), at, message]],
    );
  }
});

test.run();
