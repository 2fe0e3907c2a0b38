// A definition's scope as query conditions: own columns, or a column of a belongsTo target
// (`operationType.type: incoming` limits operations to those whose type is incoming). A value is
// either fixed (equality: create writes it) or a comparison (`customer_rank: {'>': 0}`: it only
// limits, and the field's default is what create writes; link.ts checks the default satisfies it).
import type { Knex } from 'knex';
import type { ComparisonOperator, ScopeValue } from './format.ts';
import type { Registry } from './registry.ts';
import type { ResourceDef } from './types.ts';

type FixedValue = string | number | boolean;

/** The SQL operator and operand a scope value stands for (`=` for a fixed value). */
export function scopeTest(value: ScopeValue): { operator: '=' | ComparisonOperator; operand: FixedValue } {
  if (typeof value !== 'object') return { operator: '=', operand: value };
  const [operator, operand] = Object.entries(value)[0] as [ComparisonOperator, string | number];
  return { operator, operand };
}

/** Whether a value (a field's default) lies inside the scope value, as the database would compare it. */
export function satisfiesScope(scope: ScopeValue, value: unknown): boolean {
  const { operator, operand } = scopeTest(scope);
  if (value === null || value === undefined) return false;
  const [a, b] = typeof operand === 'number' ? [Number(value), operand] : [value as FixedValue, operand];
  switch (operator) {
    case '=':
      return a === b;
    case '<>':
      return a !== b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
  }
}

type Where = { where(column: string, operator: string, value: unknown): unknown; whereIn(column: string, values: unknown): unknown };

export function applyScope(query: Where, def: ResourceDef, registry: Registry, knex: Knex): void {
  for (const [key, value] of Object.entries(def.scope)) {
    const { operator, operand } = scopeTest(value);
    if (!key.includes('.')) {
      query.where(`${def.table}.${key}`, operator, operand);
      continue;
    }
    const [relationName, column] = key.split('.') as [string, string];
    const relation = def.relations.get(relationName)!;
    const target = registry.get(relation.resource);
    query.whereIn(`${def.table}.${relation.foreignKey}`, knex(target.table).select('id').where(column, operator, operand));
  }
}

/** The scope's own columns with a fixed value, which create writes. */
export function ownScope(def: ResourceDef): Record<string, FixedValue> {
  const fixed: Record<string, FixedValue> = {};
  for (const [key, value] of Object.entries(def.scope)) if (!key.includes('.') && typeof value !== 'object') fixed[key] = value;
  return fixed;
}
