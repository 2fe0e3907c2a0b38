// The reads of an export (engine/transfer/export/): the rows in batches by keyset, a batch's lines,
// the links of its lists and the display names of what they reference, each one query per batch.
import { isOneOf, orderTerms, type SortKey } from './conditions.ts';
import { placeholders, quote, whereClause, type Condition } from './quote.ts';
import type { Row, Statements } from './statements.ts';

type Reads = Pick<Statements, 'all'>;

/** How many rows of `table` meet the conditions. */
export async function countRows(statements: Reads, table: string, conditions: readonly Condition[]): Promise<number> {
  const where = whereClause(conditions);
  const [counted] = await statements.all(`SELECT COUNT(*) AS ${quote('total')} FROM ${quote(table)}${where.sql}`, where.params);
  return Number(counted!.total);
}

/**
 * The next `size` rows of `table` that meet the conditions, in this order (ending with id), after
 * `last` (the last row of the batch before; none: from the first), as `select` reads them.
 */
export function batchAfter(
  statements: Reads,
  table: string,
  select: Condition,
  conditions: readonly Condition[],
  sort: readonly SortKey[],
  last: Row | undefined,
  size: number,
): Promise<Row[]> {
  const where = whereClause(last ? [...conditions, after(table, sort, last)] : conditions);
  const order = orderTerms(table, sort);
  return statements.all(`SELECT ${select.sql} FROM ${quote(table)}${where.sql} ORDER BY ${order} LIMIT ?`, [...select.params, ...where.params, size]);
}

/**
 * The rows after `last` in this order: equal on the first keys and after it on the next, for some
 * key. NULLs sort first ascending and last descending on both SQLite and MySQL/MariaDB.
 */
function after(table: string, sort: readonly SortKey[], last: Row): Condition {
  const alternatives: string[] = [];
  const params: unknown[] = [];
  const equal: string[] = [];
  const equalParams: unknown[] = [];
  for (const key of sort) {
    const column = quote(`${table}.${key.name}`);
    const value = last[key.name] ?? null;
    const beyond = value === null ? (key.descending ? undefined : `${column} IS NOT NULL`) : key.descending ? `(${column} < ? OR ${column} IS NULL)` : `${column} > ?`;
    if (beyond) {
      alternatives.push([...equal, beyond].join(' AND '));
      params.push(...equalParams);
      if (value !== null) params.push(value);
    }
    equal.push(value === null ? `${column} IS NULL` : `${column} = ?`);
    if (value !== null) equalParams.push(value);
  }
  return { sql: alternatives.length === 0 ? '1 = 0' : `(${alternatives.map((sql) => `(${sql})`).join(' OR ')})`, params };
}

/**
 * The lines (rows of `table`) of these owners, meeting the conditions, as `select` reads them:
 * by owner (`foreignKey`), then in `sort`, then by id.
 */
export function linesOfOwners(
  statements: Reads,
  table: string,
  foreignKey: string,
  owners: readonly number[],
  select: Condition,
  conditions: readonly Condition[],
  sort: readonly SortKey[],
): Promise<Row[]> {
  const key = quote(`${table}.${foreignKey}`);
  const where = whereClause([isOneOf(key, owners), ...conditions]);
  const order = [key, ...sort.map((by) => `${quote(`${table}.${by.name}`)} ${by.descending ? 'DESC' : 'ASC'}`), quote(`${table}.id`)].join(', ');
  return statements.all(`SELECT ${select.sql} FROM ${quote(table)}${where.sql} ORDER BY ${order}`, [...select.params, ...where.params]);
}

/** A pivot table: `from` names the owning row, `to` the linked one. */
export interface Pivot {
  table: string;
  from: string;
  to: string;
}

/** The pivot's rows of these owners (at least one): `{line, target}` each, by owner then target. */
export function pivotPairs(statements: Reads, { table, from, to }: Pivot, owners: readonly number[]): Promise<Row[]> {
  return statements.all(
    `SELECT ${quote(from)} AS ${quote('line')}, ${quote(to)} AS ${quote('target')} FROM ${quote(table)} WHERE ${quote(from)} IN (${placeholders(owners.length)}) ORDER BY ${quote(from)}, ${quote(to)}`,
    owners,
  );
}

/**
 * The rows of `target` the pivot links to these owners (at least one) and that meet the conditions:
 * `{owner, target}` each, and `display` (that column of the target) when asked; by owner then target.
 */
export function linkedRows(statements: Reads, pivot: Pivot, owners: readonly number[], target: string, conditions: readonly Condition[], display?: string): Promise<Row[]> {
  const { table, from, to } = pivot;
  const where = whereClause([isOneOf(quote(`${table}.${from}`), owners), ...conditions]);
  const names = display ? `, ${quote(`${target}.${display}`)} AS ${quote('display')}` : '';
  return statements.all(
    `SELECT ${quote(`${table}.${from}`)} AS ${quote('owner')}, ${quote(`${target}.id`)} AS ${quote('target')}${names} FROM ${quote(target)} INNER JOIN ${quote(table)} ON ${quote(`${table}.${to}`)} = ${quote(`${target}.id`)}${where.sql} ORDER BY ${quote(`${table}.${from}`)}, ${quote(`${target}.id`)}`,
    where.params,
  );
}

/** The rows of `table` with these ids (at least one): `{id, display}` each, `display` being that column. */
export function displayColumn(statements: Reads, table: string, display: string, ids: readonly unknown[]): Promise<Row[]> {
  return statements.all(`SELECT ${quote('id')}, ${quote(display)} AS ${quote('display')} FROM ${quote(table)} WHERE ${quote('id')} IN (${placeholders(ids.length)})`, ids);
}
