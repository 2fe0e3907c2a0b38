// Boot failures on bad workflow and condition keys (an action's `set` toggle or map, `template`, a lock's
// `{'<>': null}` and `{field}` placeholders, a relation's `createWith`, `requiredWhen`,
// `notBefore`, `formula`): each names the file, the place and the line. No database.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { definitionFixtures } from '../helpers/definition-fixtures.ts';

const test = suite('workflow keys in definitions');
const fixtures = definitionFixtures('erp-workflow-keys');

// A document (lines 1-10 of documents.yaml) and its parts.
const DOCUMENTS = `table: documents
label: Document
path: /support/documents
operations: [list, create, show, update, delete]
fields:
  name: { type: string, readOnly: true, nullable: true }
  kind: { type: string, enum: [plain, special] }
  state: { type: string, readOnly: true, enum: [draft, open, done], default: draft }
  locked: { type: boolean, readOnly: true }
  starts_on: { type: date }
  ends_on: { type: date }
`;
const PARTS = `table: parts
label: Part
path: /support/parts
operations: [list, show]
fields:
  document_id: { type: integer, references: support/documents }
  size: { type: string, enum: [small, large] }
`;

/** The problems reported for documents.yaml with these lines added (fields from line 12, top-level keys from 12 with their entries on 13): [place, line, message]. */
function problems(extra: string, fields = ''): Array<[string, number | undefined, string]> {
  const { fixture, problems: found } = fixtures.load({ 'support/documents.yaml': DOCUMENTS + fields + extra, 'support/parts.yaml': PARTS });
  assert.ok(found, 'the definitions loaded, but they should have been refused');
  for (const problem of found!) assert.is(problem.file, fixture('support/documents.yaml'));
  return found!.map((problem) => [problem.at, problem.line, problem.message]);
}

test.after(() => fixtures.removeAll());

const FINE = `  ends_at: { type: date, notBefore: starts_on }
  code: { type: string, readOnly: true, template: { text: '{kind}/{id}', values: { kind: { plain: P, special: S } } } }
  note: { type: string, requiredWhen: { when: { kind: [special] } } }
  price: { type: number }
  discount: { type: number, nullable: true }
  net: { type: number, readOnly: true, formula: { expression: '-(price * (1 - discount / 100)) + 2', round: 4 } }
relations:
  parts: { kind: hasMany, resource: support/parts, foreignKey: document_id, createWith: [{ size: small }] }
locks:
  - { when: { name: { '<>': null } }, forbid: [delete], message: 'Document {name} is numbered.' }
actions:
  lock: { set: { locked: toggle }, message: Done. }
  close: { set: { state: { open: done, done: open } }, message: Done., when: { state: [open, done] }, refused: No., to: { state: [open, done] } }
`;

test('every key loads when it is used as documented', () => {
  const { problems: found } = fixtures.load({ 'support/documents.yaml': DOCUMENTS + FINE, 'support/parts.yaml': PARTS });
  assert.is(found, undefined, JSON.stringify(found));
});

test('set: toggle turns a boolean over; a map says what each value `when` allows becomes, in the enum', () => {
  assert.equal(problems('actions:\n  lock: { set: { state: toggle }, message: Done. }\n'), [['actions.lock.set.state', 13, '`toggle` turns a boolean field over']]);
  assert.equal(problems('actions:\n  close: { set: { state: { open: done } }, message: Done., when: { state: [open, draft] }, refused: No. }\n'), [
    ['actions.close.set.state', 13, 'says nothing for "draft", which `when` allows'],
  ]);
  assert.equal(problems('actions:\n  close: { set: { state: { open: shut } }, message: Done. }\n'), [
    ['actions.close.set.state', 13, '"shut" is not one of state\'s values (draft, open, done)'],
  ]);
});

test("locks: {'<>': value} of the column's values; a {field} placeholder names a field", () => {
  assert.equal(problems("locks:\n  - { when: { state: { '<>': shut } }, forbid: [delete], message: No. }\n"), [
    ['locks.0.when.state', 13, '"shut" is not one of state\'s values (draft, open, done)'],
  ]);
  assert.equal(problems("locks:\n  - { when: { name: { '<>': null } }, forbid: [delete], message: 'Document {nme} is numbered.' }\n"), [
    ['locks.0.message', 13, '"nme" is not a field of this resource, did you mean "name"?'],
  ]);
});

test('template: a stored string made of fields of the record, their words for values they can have', () => {
  assert.equal(problems('', "  code: { type: string, readOnly: true, template: { text: '{knd}/{id}' } }\n"), [
    ['fields.code.template.text', 12, '"knd" is not a field of this resource, did you mean "kind"?'],
  ]);
  assert.equal(problems('', "  code: { type: string, readOnly: true, template: { text: '{kind}/{id}', values: { kind: { odd: O } } } }\n"), [
    ['fields.code.template.values.kind', 12, '"odd" is not one of kind\'s values (plain, special)'],
  ]);
  assert.equal(problems('', "  code: { type: integer, readOnly: true, template: { text: '{id}' } }\n"), [
    ['fields.code.template', 12, "a name made of the record's values is a stored string field"],
  ]);
});

test('createWith: records of a hasMany relation, with fields and values of the related resource', () => {
  assert.equal(problems('relations:\n  parts: { kind: hasMany, resource: support/parts, foreignKey: document_id, createWith: [{ colour: red }] }\n'), [
    ['relations.parts.createWith.0.colour', 13, '"colour" is not a field of support/parts to give'],
  ]);
  assert.equal(problems('relations:\n  parts: { kind: hasMany, resource: support/parts, foreignKey: document_id, createWith: [{ size: huge }] }\n'), [
    ['relations.parts.createWith.0.size', 13, '"huge" is not one of size\'s values (small, large)'],
  ]);
});

test('requiredWhen names another field and its values; notBefore a writable date field', () => {
  assert.equal(problems('', '  note: { type: string, requiredWhen: { when: { knd: [special] } } }\n'), [
    ['fields.note.requiredWhen.when.knd', 12, '"knd" is not another field of this resource, did you mean "kind"?'],
  ]);
  assert.equal(problems('', '  note: { type: string, requiredWhen: { when: { kind: [odd] } } }\n'), [
    ['fields.note.requiredWhen.when.kind', 12, '"odd" is not one of kind\'s values (plain, special)'],
  ]);
  assert.equal(problems('', '  ends_at: { type: date, notBefore: name }\n'), [
    ['fields.ends_at.notBefore', 12, '"name" is not a writable date field of this resource (a range\'s start and end are writable dates of one type)'],
  ]);
});

test('formula: an expression of numeric fields of the record, on a read-only number', () => {
  const operands = '  price: { type: number }\n  discount: { type: number }\n';
  const formula = (expression: string, field = '{ type: number, readOnly: true') => problems('', `${operands}  net: ${field}, formula: { expression: '${expression}' } }\n`);
  assert.equal(formula('price * (1 - discount / 100'), [['fields.net.formula.expression', 14, 'cannot be read: a "(" is not closed']]);
  assert.equal(formula('price ** 2'), [['fields.net.formula.expression', 14, 'cannot be read: unexpected "*"']]);
  assert.equal(formula('price * discont'), [['fields.net.formula.expression', 14, '"discont" is not a field of this resource, did you mean "discount"?']]);
  assert.equal(formula('price * kind'), [['fields.net.formula.expression', 14, '"kind" is not a numeric field (integer, number or decimal)']]);
  assert.equal(formula('price - discount', '{ type: number'), [['fields.net.formula', 14, 'a formula field is written by the engine: add readOnly: true']]);
  assert.equal(formula('price - discount', '{ type: string, readOnly: true'), [['fields.net.formula', 14, 'a formula gives a stored number (integer, number or decimal field)']]);
});

test.run();
