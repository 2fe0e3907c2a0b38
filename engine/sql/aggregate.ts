// `aggregate: {count|sum: relation[.column], where}` on a field: a count or sum over the live
// records a hasMany relation names, worked out by the database with each row as a scalar
// subquery (a project's tasks_count, a lot's stock in internal locations): one statement for a
// whole list page, and never out of date. The constants it compares come from the definition
// (checked at boot to be plain words and numbers), never from a request.
import type { ScopeValue } from '../definition/format.ts';
import type { Registry } from '../definition/registry.ts';
import { scopeTest } from '../definition/scope.ts';
import type { FieldDef, ResourceDef } from '../definition/types.ts';
import { quote } from './quote.ts';

const ALIAS = 'aggregated';

/** The relation and column an aggregate reads: `tasks`, `quantities.quantity`. */
export function aggregatePath(field: FieldDef): { kind: 'count' | 'sum'; relation: string; column?: string } {
  const { count, sum } = field.aggregate!;
  const [relation, column] = (count ?? sum)!.split('.') as [string, string | undefined];
  return { kind: count !== undefined ? 'count' : 'sum', relation, ...(column && { column }) };
}

/** A definition's constant as SQL: a number, a boolean as 1/0, or a quoted plain word. */
export function literal(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') return String(value);
  return `'${value.replace(/'/g, "''")}'`;
}

function test(column: string, value: ScopeValue): string {
  const { operator, operand } = scopeTest(value);
  return `${column} ${operator} ${literal(operand)}`;
}

/** The scalar subquery of an aggregate field, for a row of `table` (its quoted name). */
export function aggregateSql(def: ResourceDef, field: FieldDef, registry: Registry, table: string): string {
  const { kind, relation: relationName, column } = aggregatePath(field);
  const relation = def.relations.get(relationName)!;
  const child = registry.get(relation.resource);
  const at = (name: string) => quote(`${ALIAS}.${name}`);
  const value = kind === 'sum' ? `COALESCE(SUM(${at(column!)}), 0)` : column ? `COUNT(DISTINCT ${at(column)})` : 'COUNT(*)';
  const conditions = [`${at(relation.foreignKey)} = ${table}.${quote('id')}`];
  if (child.softDelete) conditions.push(`${at('deleted_at')} IS NULL`);
  for (const [name, expected] of Object.entries(relation.where ?? {})) {
    conditions.push(Array.isArray(expected) ? `${at(name)} IN (${expected.map(literal).join(', ')})` : `${at(name)} = ${literal(expected)}`);
  }
  for (const [key, expected] of Object.entries(field.aggregate!.where ?? {})) {
    if (!key.includes('.')) {
      conditions.push(test(at(key), expected));
      continue;
    }
    const [through, name] = key.split('.') as [string, string];
    const belongs = child.relations.get(through)!;
    const target = registry.get(belongs.resource);
    conditions.push(`${at(belongs.foreignKey)} IN (SELECT ${quote('id')} FROM ${quote(target.table)} WHERE ${test(quote(name), expected)})`);
  }
  return `SELECT ${value} FROM ${quote(child.table)} ${quote(ALIAS)} WHERE ${conditions.join(' AND ')}`;
}
