// `aggregate: {count|sum: relation[.column], where}` on a field: a count or sum over the live
// records a hasMany relation names, worked out by the database with each row as a scalar
// subquery (a project's tasks_count, a lot's stock in internal locations): one statement for a
// whole list page, and never out of date. The constants it compares come from the definition
// (checked at boot to be plain words and numbers) and go to the database as bindings.
import type { ScopeValue } from '../definition/format.ts';
import type { Registry } from '../definition/registry.ts';
import { scopeTest } from '../definition/scope.ts';
import type { FieldDef, ResourceDef } from '../definition/types.ts';
import { placeholders, quote, type Condition } from './quote.ts';

const ALIAS = 'aggregated';

/** The relation and column an aggregate reads: `tasks`, `quantities.quantity`. */
export function aggregatePath(field: FieldDef): { kind: 'count' | 'sum'; relation: string; column?: string } {
  const { count, sum } = field.aggregate!;
  const [relation, column] = (count ?? sum)!.split('.') as [string, string | undefined];
  return { kind: count !== undefined ? 'count' : 'sum', relation, ...(column && { column }) };
}

/** A definition's constant as a binding: a boolean as 1/0 (what both databases store). */
function bound(value: string | number | boolean): string | number {
  return typeof value === 'boolean' ? Number(value) : value;
}

function test(column: string, value: ScopeValue): Condition {
  const { operator, operand } = scopeTest(value);
  return { sql: `${column} ${operator} ?`, params: [bound(operand)] };
}

/** The scalar subquery of an aggregate field, for a row of `table` (its quoted name), with its bindings. */
export function aggregateSql(def: ResourceDef, field: FieldDef, registry: Registry, table: string): Condition {
  const { kind, relation: relationName, column } = aggregatePath(field);
  const relation = def.relations.get(relationName)!;
  const child = registry.get(relation.resource);
  const at = (name: string) => quote(`${ALIAS}.${name}`);
  const value = kind === 'sum' ? `COALESCE(SUM(${at(column!)}), 0)` : column ? `COUNT(DISTINCT ${at(column)})` : 'COUNT(*)';
  const conditions = [`${at(relation.foreignKey)} = ${table}.${quote('id')}`];
  const params: unknown[] = [];
  if (child.softDelete) conditions.push(`${at('deleted_at')} IS NULL`);
  for (const [name, expected] of Object.entries(relation.where ?? {})) {
    const values = [expected].flat();
    conditions.push(Array.isArray(expected) ? `${at(name)} IN (${placeholders(values.length)})` : `${at(name)} = ?`);
    params.push(...values.map(bound));
  }
  for (const [key, expected] of Object.entries(field.aggregate!.where ?? {})) {
    const [through, name] = key.includes('.') ? (key.split('.') as [string, string]) : [undefined, key];
    const compared = test(through === undefined ? at(name) : quote(name), expected);
    params.push(...compared.params);
    if (through === undefined) {
      conditions.push(compared.sql);
      continue;
    }
    const belongs = child.relations.get(through)!;
    const target = registry.get(belongs.resource);
    conditions.push(`${at(belongs.foreignKey)} IN (SELECT ${quote('id')} FROM ${quote(target.table)} WHERE ${compared.sql})`);
  }
  return { sql: `SELECT ${value} FROM ${quote(child.table)} ${quote(ALIAS)} WHERE ${conditions.join(' AND ')}`, params };
}
