// Reads that find rows by their ids or by a key, on the prepared statements: whether referenced
// records exist (a body's validation), which record a name or an upsert's values stand for, whether
// a unique value is taken, the records an import updates, a record's owners through a pivot.
// `conditions` narrow the rows (./resource-rows.ts: scope, trashed, row scope; ./conditions.ts).
import { isOneOf } from './conditions.ts';
import { quote, whereClause, type Condition } from './quote.ts';
import type { Row, Statements } from './statements.ts';

type Reads = Pick<Statements, 'all'>;

/** The ids of the rows of `table` that meet the conditions. */
export async function idsWhere(statements: Reads, table: string, conditions: readonly Condition[]): Promise<number[]> {
  const where = whereClause(conditions);
  return (await statements.all(`SELECT ${quote('id')} FROM ${quote(table)}${where.sql}`, where.params)).map((row) => Number(row.id));
}

/** Which of these ids (at least one) name a row of `table` that meets the conditions. */
export async function idsAmong(statements: Reads, table: string, ids: readonly unknown[], conditions: readonly Condition[]): Promise<number[]> {
  const where = whereClause([isOneOf(quote(`${table}.id`), ids), ...conditions]);
  return (await statements.all(`SELECT ${quote(`${table}.id`)} FROM ${quote(table)}${where.sql}`, where.params)).map((row) => Number(row.id));
}

/** The rows of `table` whose column `by` holds one of these keys (at least one), meeting the conditions: `{id, key}` each. */
export function rowsByKey(statements: Reads, table: string, by: string, keys: readonly unknown[], conditions: readonly Condition[]): Promise<Row[]> {
  const column = quote(`${table}.${by}`);
  const where = whereClause([isOneOf(column, keys), ...conditions]);
  return statements.all(`SELECT ${quote(`${table}.id`)}, ${column} AS ${quote('key')} FROM ${quote(table)}${where.sql}`, where.params);
}

/** The rows of `table` whose column `by` holds one of these names (at least one), meeting the conditions: `{id, name}` each. */
export function rowsByName(statements: Reads, table: string, by: string, names: readonly string[], conditions: readonly Condition[]): Promise<Row[]> {
  const where = whereClause([isOneOf(quote(`${table}.${by}`), names), ...conditions]);
  return statements.all(`SELECT ${quote(`${table}.id`)} AS ${quote('id')}, ${quote(`${table}.${by}`)} AS ${quote('name')} FROM ${quote(table)}${where.sql}`, where.params);
}

/** Whether some row of `table` meets the conditions. */
export async function someRow(statements: Reads, table: string, conditions: readonly Condition[]): Promise<boolean> {
  const where = whereClause(conditions);
  return (await statements.all(`SELECT 1 AS ${quote('found')} FROM ${quote(table)}${where.sql} LIMIT 1`, where.params)).length > 0;
}

/** The id of one row of `table` that meets the conditions, if any. */
export async function firstId(statements: Reads, table: string, conditions: readonly Condition[]): Promise<number | undefined> {
  const where = whereClause(conditions);
  const [row] = await statements.all(`SELECT ${quote('id')} FROM ${quote(table)}${where.sql} LIMIT 1`, where.params);
  return row ? Number(row.id) : undefined;
}

/** The rows of `table` with these ids (at least one) that meet the conditions, as `columns` (./columns.ts) reads them. */
export function rowsAmong(statements: Reads, table: string, columns: Condition, ids: readonly unknown[], conditions: readonly Condition[]): Promise<Row[]> {
  const where = whereClause([isOneOf(quote(`${table}.id`), ids), ...conditions]);
  return statements.all(`SELECT ${columns.sql} FROM ${quote(table)}${where.sql}`, [...columns.params, ...where.params]);
}

/** The ids a pivot table links to a record: `to` of its rows whose `from` is `id`. */
export async function linkedIds(statements: Reads, pivot: { table: string; from: string; to: string }, id: unknown): Promise<number[]> {
  const rows = await statements.all(`SELECT ${quote(pivot.to)} AS ${quote('owner')} FROM ${quote(pivot.table)} WHERE ${quote(pivot.from)} = ?`, [id]);
  return rows.map((row) => Number(row.owner));
}
