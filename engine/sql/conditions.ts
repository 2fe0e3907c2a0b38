// The pieces of WHERE clauses and ORDER BY lists the engine's reads are written from, so that the
// folders that decide what to read (lists, filters, lookups, exports, imports) say it without
// writing SQL. `column` is always a quoted identifier (./quote.ts: quote('table.column')) or
// another SQL expression the engine wrote; values always go as bindings.
import { condition, placeholders, quote, type Condition } from './quote.ts';

/** `column = ?` */
export function equals(column: string, value: unknown): Condition {
  return { sql: `${column} = ?`, params: [value] };
}

/** `column <> ?` */
export function differsFrom(column: string, value: unknown): Condition {
  return { sql: `${column} <> ?`, params: [value] };
}

/** `column <operator> ?`: a definition's scope test (`=`, `>`, `<>`...: definition/scope.ts). */
export function compared(column: string, operator: string, operand: unknown): Condition {
  return condition(`${column} ${operator} ?`, operand);
}

/** `column IS NULL` */
export function isNull(column: string): Condition {
  return { sql: `${column} IS NULL`, params: [] };
}

/** `column IS NOT NULL` */
export function isNotNull(column: string): Condition {
  return { sql: `${column} IS NOT NULL`, params: [] };
}

/** `column IN (?, ?, ...)`: one binding per value (at least one value). */
export function isOneOf(column: string, values: readonly unknown[]): Condition {
  return { sql: `${column} IN (${placeholders(values.length)})`, params: values as unknown[] };
}

/** `column >= ? AND column < ?`: from `from` up to `below`, excluded. */
export function inRange(column: string, from: unknown, below: unknown): Condition {
  return { sql: `${column} >= ? AND ${column} < ?`, params: [from, below] };
}

/**
 * `column >= ? AND column <= ?`, both ends included: a filter's range. An end left undefined is
 * open (one of them at least is given); the same value at both ends is `column = ?`.
 */
export function within(column: string, low: unknown, high: unknown): Condition {
  if (low !== undefined && high !== undefined) return low === high ? equals(column, low) : { sql: `${column} >= ? AND ${column} <= ?`, params: [low, high] };
  return low !== undefined ? compared(column, '>=', low) : compared(column, '<=', high);
}

/**
 * `column LIKE ? ESCAPE '<escapeCharacter>'` for a pattern the caller escaped with it; `LOWER(column)` unless the
 * column's LIKE already ignores case (the pattern is then lower case).
 */
export function matchesPattern(column: string, pattern: string, escapeCharacter: string, likeIgnoresCase: boolean): Condition {
  const folded = likeIgnoresCase ? column : `LOWER(${column})`;
  return { sql: `${folded} LIKE ? ESCAPE '${escapeCharacter}'`, params: [pattern] };
}

/** A condition no row meets. */
export function never(): Condition {
  return { sql: '1 = 0', params: [] };
}

/** `EXISTS (SELECT 1 FROM table WHERE ...)`: some row of `table` meets `where` (./quote.ts: whereClause). */
export function existsIn(table: string, where: Condition): Condition {
  return { sql: `EXISTS (SELECT 1 FROM ${quote(table)}${where.sql})`, params: where.params };
}

/** `column IN (SELECT table.id FROM table WHERE ...)`: `column` names a row of `table` that meets `where`. */
export function namesRowOf(column: string, table: string, where: Condition): Condition {
  return { sql: `${column} IN (SELECT ${quote(`${table}.id`)} FROM ${quote(table)}${where.sql})`, params: where.params };
}

/** A computed column of a select list: `expression AS alias`. */
export function named(expression: Condition, alias: string): Condition {
  return { sql: `${expression.sql} AS ${quote(alias)}`, params: expression.params };
}

/** A sort key: a column of the table, and its direction. */
export interface SortKey {
  name: string;
  descending: boolean;
}

/** `table.a ASC, table.b DESC`: an ORDER BY list on the table's columns. */
export function orderTerms(table: string, sort: readonly SortKey[]): string {
  return sort.map((key) => `${quote(`${table}.${key.name}`)} ${key.descending ? 'DESC' : 'ASC'}`).join(', ');
}
