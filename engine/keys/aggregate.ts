// `aggregate:` (on a read-only field): a count or a sum over a hasMany relation's live records,
// worked out by the database with each row, so the field has no column:
//
//   lines_count: { type: integer, readOnly: true, aggregate: { count: lines } }
//   amount_paid: { type: decimal, readOnly: true, aggregate: { sum: payments.amount, where: { state: posted } } }
//
// Its format, boot checks (each problem names the file and line) and words in the references are
// here; the SQL that reads it is engine/sql/aggregate.ts.
import { Type } from '@sinclair/typebox';
import { RelatedPath, type ScopeValue, ScopeValueFormat } from '../definition/format.ts';
import { scopeTest } from '../definition/scope.ts';
import type { FieldDef, ResourceDef } from '../definition/types.ts';
import type { RuleKey } from './types.ts';

export const aggregate: RuleKey = {
  key: 'aggregate',
  format: {
    at: 'field',
    schema: Type.Object(
      {
        count: Type.Optional(
          Type.String({
            pattern: '^[a-z][A-Za-z0-9]*(\\.[a-z][a-z0-9_]*)?$',
            description: 'a hasMany relation: how many live related records; relation.column: how many different values of that column they have',
          }),
        ),
        sum: Type.Optional(
          Type.String({ pattern: RelatedPath.pattern, description: 'relation.column of a hasMany relation: the total over the live related records (0 with none)' }),
        ),
        where: Type.Optional(
          Type.Record(Type.String({ pattern: '^([a-z][A-Za-z0-9]*\\.)?[a-z][a-z0-9_]*$' }), ScopeValueFormat, {
            additionalProperties: false,
            description: "only related records with these column values (a comparison: {'>': 0}); relation.column reads a record a related record's belongsTo relation names",
          }),
        ),
      },
      {
        additionalProperties: false,
        minProperties: 1,
        description: 'a read-only count or sum over related records, worked out by the database with each row (no column)',
      },
    ),
  },
  withoutColumn: true,
  check(def, resources, problem) {
    for (const field of def.fields.values()) {
      if (field.aggregate) aggregateProblems(def, field, resources, (at, message) => problem(`fields.${field.name}.aggregate${at}`, message));
    }
  },
  describeField: describeAggregate,
};

/** Constants an aggregate puts in its SQL: plain words and numbers. */
const PLAIN = /^[A-Za-z0-9_ .:/-]*$/;
const plainValue = (value: ScopeValue | readonly string[]) =>
  (Array.isArray(value) ? value : [scopeTest(value as ScopeValue).operand]).every((operand) => typeof operand !== 'string' || PLAIN.test(operand));

/** Boot checks of an `aggregate`: a read-only field over a hasMany relation's stored columns. */
function aggregateProblems(def: ResourceDef, field: FieldDef, resources: ReadonlyMap<string, ResourceDef>, problem: (at: string, message: string) => void): void {
  const { count, sum, where } = field.aggregate!;
  if ((count === undefined) === (sum === undefined)) {
    problem('', 'an aggregate is a count or a sum: give one of them');
    return;
  }
  if (!field.readOnly) problem('', 'an aggregate field is read-only: add readOnly: true');
  const [relationName, column] = (count ?? sum)!.split('.') as [string, string | undefined];
  const at = count !== undefined ? '.count' : '.sum';
  const relation = def.relations.get(relationName);
  if (relation?.kind !== 'hasMany') {
    problem(at, `"${relationName}" is not a hasMany relation of this resource`);
    return;
  }
  const child = resources.get(relation.resource);
  if (!child) return;
  const numeric = ['integer', 'number', 'decimal'];
  if (column !== undefined) {
    const target = child.fields.get(column);
    if (!target?.stored) problem(at, `"${column}" is not a field of ${child.name}`);
    else if (sum !== undefined && !numeric.includes(target.type)) problem(at, `"${column}" is not a number: it cannot be summed`);
  }
  if (count !== undefined && field.type !== 'integer') problem('', 'a count is an integer field');
  if (sum !== undefined && !numeric.includes(field.type)) problem('', 'a sum is a number field');
  for (const [name, value] of Object.entries(relation.where ?? {}))
    if (!plainValue(value)) problem(at, `relations.${relationName}.where.${name}: only plain words and numbers can be aggregated over`);
  for (const [key, value] of Object.entries(where ?? {})) {
    const [first, second] = key.split('.') as [string, string | undefined];
    let owner: ResourceDef | undefined = child;
    let name = first;
    if (second !== undefined) {
      const through = child.relations.get(first);
      owner = through?.kind === 'belongsTo' ? resources.get(through.resource) : undefined;
      name = second;
      if (!owner) {
        problem(`.where.${key}`, `"${first}" is not a belongsTo relation of ${child.name}`);
        continue;
      }
    }
    if (!owner.fields.get(name)?.stored) problem(`.where.${key}`, `"${name}" is not a field of ${owner.name}`);
    if (!plainValue(value)) problem(`.where.${key}`, 'only plain words and numbers: letters, digits, spaces and _ . : / -');
  }
}

/** What `aggregate` says of a field, for the OpenAPI and Markdown references. */
function describeAggregate(def: ResourceDef, field: FieldDef): string[] {
  if (!field.aggregate) return [];
  const { count, sum, where } = field.aggregate;
  const [relation, column] = (count ?? sum)!.split('.') as [string, string | undefined];
  const what = sum !== undefined ? `The total \`${column}\` of` : column ? `How many different \`${column}\` among` : 'How many';
  const conditions = Object.entries(where ?? {}).map(([key, value]) => {
    const { operator, operand } = scopeTest(value);
    return `\`${key}\` ${operator === '=' ? 'is' : operator} ${JSON.stringify(operand)}`;
  });
  const target = def.relations.get(relation)?.resource ?? relation;
  return [`${what} the live \`${relation}\` (${target})${conditions.length > 0 ? ` with ${conditions.join(' and ')}` : ''}; worked out when read.`];
}
