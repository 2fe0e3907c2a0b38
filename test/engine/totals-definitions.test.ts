// What grouped totals offer of a definition's fields (engine/aggregate/offer.ts) and the `totals:`
// key that narrows it (engine/keys/totals.ts): by type, an id of another record is counted
// distinct and never summed, a position (`append`) offers nothing; `totals` takes a dimension or
// measures away, or names the functions a field takes; a `totals` that asks for what the type does
// not give is refused at boot, naming the file, place and line. No database.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { aggregateOffer } from '../../engine/aggregate/offer.ts';
import { definitionFixtures } from '../helpers/definition-fixtures.ts';

const test = suite('totals in definitions');
const fixtures = definitionFixtures('erp-totals');

const PARENTS = `table: parents
label: Parent
path: /support/parents
operations: [list, create, show]
fields:
  name: { type: string }
`;
// Fields from line 6.
const ITEMS = `table: items
label: Item
path: /support/items
operations: [list, create, show]
fields:
  parent_id: { type: integer }
  copied_id: { type: integer, readOnly: true, nullable: true }
  sort: { type: integer, append: true }
  quantity: { type: number }
  state: { type: string, enum: [draft, done] }
  issued_on: { type: date }
  notes: { type: string, maxLength: 2000, nullable: true }
`;
const RELATIONS = `relations:
  parent: { kind: belongsTo, resource: support/parents, foreignKey: parent_id }
`;

const load = (fields: string) => fixtures.load({ 'support/parents.yaml': PARENTS, 'support/items.yaml': ITEMS + fields + RELATIONS });

test.after(() => fixtures.removeAll());

test('by type: an id is counted distinct, never summed; a position offers nothing; a number every measure', () => {
  const { registry, problems } = load('');
  assert.is(problems, undefined, JSON.stringify(problems));
  const offer = aggregateOffer(registry!.get('support/items'), registry!);
  assert.equal([...offer.dimensions.keys()], ['parent', 'copied_id', 'state', 'issued_on', 'created_at', 'updated_at']);
  assert.equal(offer.measures.get('parent_id')?.functions, ['count_distinct']);
  assert.equal(offer.measures.get('copied_id')?.functions, ['count_distinct']);
  assert.equal(offer.measures.get('quantity')?.functions, ['sum', 'avg', 'min', 'max', 'count_distinct']);
  assert.is(offer.measures.has('sort'), false);
  assert.is(offer.dimensions.has('sort'), false);
});

test('totals narrows: measures named, measures false, groupBy false, false for both, a position given back', () => {
  const { registry, problems } = load(`  price: { type: number, totals: { measures: [avg, min, max] } }
  code: { type: integer, totals: { measures: false } }
  kind: { type: string, enum: [a, b], totals: { groupBy: false } }
  rank: { type: integer, totals: false }
  position: { type: integer, append: true, totals: { measures: [min, max] } }
`);
  assert.is(problems, undefined, JSON.stringify(problems));
  const def = registry!.get('support/items');
  const offer = aggregateOffer(def, registry!);
  assert.equal(offer.measures.get('price')?.functions, ['avg', 'min', 'max']);
  assert.is(offer.measures.has('code'), false);
  assert.ok(offer.dimensions.has('code'));
  assert.is(offer.dimensions.has('kind'), false);
  assert.equal(offer.measures.get('kind')?.functions, ['count_distinct']);
  assert.is(offer.measures.has('rank') || offer.dimensions.has('rank'), false);
  assert.equal(offer.measures.get('position')?.functions, ['min', 'max']);
  // An explicit totals replaces the position's default: what it does not name, the type gives.
  assert.ok(offer.dimensions.has('position'));
  // Clients read it in the field's words too.
  assert.equal(def.fields.get('price')!.keyWords, ['The grouped totals measure it by avg, min and max only.']);
  assert.equal(def.fields.get('code')!.keyWords, ['The grouped totals group by it but never measure it.']);
  assert.equal(def.fields.get('rank')!.keyWords, ['Not offered by the grouped totals.']);
});

test('what the type does not give is refused at boot, with the place and line', () => {
  const { fixture, problems } = load(`  due_on: { type: date, totals: { measures: [sum] } }
  parent_name: { type: string, readOnly: true, related: parent.name, totals: { measures: [avg] } }
  notes_copy: { type: string, maxLength: 2000, nullable: true, totals: { groupBy: false } }
  flag: { type: boolean, totals: { measures: false, groupBy: false } }
  hidden_count: { type: integer, hidden: true, totals: false }
  ref_id: { type: integer, nullable: true, totals: { measures: [sum] } }
`);
  assert.ok(problems, 'refused');
  for (const problem of problems!) assert.is(problem.file, fixture('support/items.yaml'));
  const found = problems!.map((problem) => [problem.at, problem.line, problem.message]);
  assert.equal(
    found.filter(([at]) => String(at).startsWith('fields.')),
    [
      ['fields.due_on.totals', 13, 'the date field takes min, max, count_distinct, not sum'],
      ['fields.parent_name.totals', 14, 'the string field takes count_distinct, not avg'],
      ['fields.notes_copy.totals', 15, 'groupBy: false turns off a dimension the field does not give (a stored field the API shows, not a long text)'],
      ['fields.hidden_count.totals', 17, "the grouped totals offer nothing of this field (not stored, not shown, or the record's own id)"],
      ['fields.ref_id.totals', 18, 'the integer field takes count_distinct, not sum'],
    ],
    JSON.stringify(found),
  );
});

test('a function that does not exist is refused by the format', () => {
  const { problems } = load(`  odd: { type: number, totals: { measures: [median] } }
`);
  assert.equal(
    problems?.map((problem) => [problem.at, problem.line]),
    [['fields.odd.totals', 13]],
  );
});

test.run();
