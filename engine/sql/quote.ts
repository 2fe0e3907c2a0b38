// SQL text the engine writes itself: identifiers in backticks (MySQL's quoting, which SQLite
// accepts too) and values always as `?` bindings.

/** `table.column` → `` `table`.`column` ``. Names come from definitions, never from requests. */
export function quote(identifier: string): string {
  return identifier
    .split('.')
    .map((part) => `\`${part.replace(/`/g, '``')}\``)
    .join('.');
}

export function placeholders(count: number): string {
  return new Array(count).fill('?').join(', ');
}

/** A piece of a WHERE clause with its bindings, in order. */
export interface Condition {
  sql: string;
  params: unknown[];
}

export function condition(sql: string, ...params: unknown[]): Condition {
  return { sql, params };
}

/** `WHERE a AND b ...` (empty when there is nothing to require). */
export function whereClause(conditions: readonly Condition[]): Condition {
  const all = allOf(conditions);
  return all.sql ? { sql: ` WHERE ${all.sql}`, params: all.params } : all;
}

/** `a AND b ...` (empty when there is nothing to require). */
export function allOf(conditions: readonly Condition[]): Condition {
  if (conditions.length === 0) return { sql: '', params: [] };
  return { sql: conditions.map((c) => c.sql).join(' AND '), params: conditions.flatMap((c) => c.params) };
}
