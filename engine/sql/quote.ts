// SQL text the engine writes itself: identifiers in backticks (MySQL's quoting, which SQLite
// accepts too) and values always as `?` bindings.

/** `table.column` → `` `table`.`column` ``. Names come from definitions, never from requests. */
export function quote(identifier: string): string {
  let quotedIdentifier = quoted.get(identifier);
  if (quotedIdentifier === undefined) {
    quotedIdentifier = identifier
      .split('.')
      .map((part) => `\`${part.replace(/`/g, '``')}\``)
      .join('.');
    if (quoted.size >= MAX_QUOTED) quoted.clear();
    quoted.set(identifier, quotedIdentifier);
  }
  return quotedIdentifier;
}

// Reads write their SQL per request from the same few names: each is quoted once.
const quoted = new Map<string, string>();
const MAX_QUOTED = 10_000;

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
  // Plain loops: this runs for every read, and map/join/flatMap allocate more.
  let sql = conditions[0]!.sql;
  const params = [...conditions[0]!.params];
  for (let i = 1; i < conditions.length; i++) {
    sql += ` AND ${conditions[i]!.sql}`;
    for (const param of conditions[i]!.params) params.push(param);
  }
  return { sql, params };
}

/** `INSERT INTO table (a, b) VALUES (?, ?)` of one row's columns, with their values as bindings. */
export function insertStatement(table: string, row: Record<string, unknown>): Condition {
  const columns = Object.keys(row);
  return { sql: `INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES (${placeholders(columns.length)})`, params: Object.values(row) };
}
