// The statements of a grouped total (GET <list path>/aggregate, engine/routes/aggregate.ts): the
// groups of a list's rows with their measures, a page of them in the asked order, and how many
// groups there are, in one statement (a window count over the groups); the span of a datetime's
// values, for its time zone's offsets; the labels of related records. Bucket keys are written as
// text the same way on both databases (`2026-12-05`, `2026-W49`, `2026-12`, `2026-Q4`, `2026`);
// decimals are summed exactly (MySQL's DECIMAL; on SQLite, whole units of their last place as a
// 64-bit integer, read as text).
import type { Dialect } from './dialect.ts';
import { placeholders, quote, whereClause, type Condition } from './quote.ts';

export type BucketUnit = 'day' | 'week' | 'month' | 'quarter' | 'year';

/** From `from` (ms since the epoch; none for the first) a zone is `offset` seconds ahead of UTC. */
export interface ZoneShift {
  from?: number;
  offset: number;
}

/** A group's key as SQL: a column, or a date's or datetime's bucket. */
export type KeyColumn =
  | { kind: 'column'; column: string; text?: boolean }
  | { kind: 'bucket'; column: string; unit: BucketUnit; type: 'date' }
  | { kind: 'bucket'; column: string; unit: BucketUnit; type: 'datetime'; shifts: readonly ZoneShift[] };

/** A measure as SQL; `scale`: a decimal's places (summed exactly). */
export interface MeasureColumn {
  fn: 'count' | 'sum' | 'avg' | 'min' | 'max' | 'count_distinct';
  column?: string;
  scale?: number;
}

export interface GroupOrder {
  /** Index into the keys, or into the measures. */
  of: 'key' | 'measure';
  index: number;
  descending: boolean;
}

/** A stored UTC timestamp at an instant, as the columns hold them (`2026-03-29 01:00:00`). */
function storedAt(instant: number): string {
  return new Date(instant).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The offset in seconds that applies to `column`: one binding, or CASEs nested as a balanced tree
 * over the zone's changes (a row compares with log2 of them, not with each).
 */
function offsetOf(column: string, shifts: readonly ZoneShift[]): Condition {
  if (shifts.length === 1) return { sql: '?', params: [shifts[0]!.offset] };
  const middle = Math.floor(shifts.length / 2);
  const before = offsetOf(column, shifts.slice(0, middle));
  const after = offsetOf(column, shifts.slice(middle));
  return { sql: `CASE WHEN ${column} < ? THEN ${before.sql} ELSE ${after.sql} END`, params: [storedAt(shifts[middle]!.from!), ...before.params, ...after.params] };
}

/**
 * The local datetime of a UTC `column`, shifted by the zone's offset (unshifted at UTC). Within a
 * day of the calendar's ends it is not shifted: past 9999-12-31 both databases have no datetime.
 */
function localTime(dialect: Dialect, column: string, shifts: readonly ZoneShift[]): Condition {
  if (shifts.length === 1 && shifts[0]!.offset === 0) return { sql: column, params: [] };
  const shifted = offsetOf(column, shifts);
  const offset = { sql: `CASE WHEN ${column} >= '9999-12-31' OR ${column} < '1000-01-02' THEN 0 ELSE ${shifted.sql} END`, params: shifted.params };
  return dialect === 'mysql'
    ? { sql: `DATE_ADD(${column}, INTERVAL (${offset.sql}) SECOND)`, params: offset.params }
    : { sql: `datetime(${column}, (${offset.sql}) || ' seconds')`, params: offset.params };
}

/** The text of a date's (or a local datetime's) calendar bucket. */
function bucketOf(dialect: Dialect, value: string, unit: BucketUnit): string {
  if (dialect === 'mysql') {
    switch (unit) {
      case 'day':
        return `DATE_FORMAT(${value}, '%Y-%m-%d')`;
      case 'week':
        return `DATE_FORMAT(${value}, '%x-W%v')`;
      case 'month':
        return `DATE_FORMAT(${value}, '%Y-%m')`;
      case 'quarter':
        return `CONCAT(YEAR(${value}), '-Q', QUARTER(${value}))`;
      case 'year':
        return `DATE_FORMAT(${value}, '%Y')`;
    }
  }
  switch (unit) {
    case 'day':
      return `strftime('%Y-%m-%d', ${value})`;
    case 'week':
      return `strftime('%G-W%V', ${value})`;
    case 'month':
      return `strftime('%Y-%m', ${value})`;
    case 'quarter':
      return `(strftime('%Y', ${value}) || '-Q' || ((CAST(strftime('%m', ${value}) AS INTEGER) + 2) / 3))`;
    case 'year':
      return `strftime('%Y', ${value})`;
  }
}

/** How many times a bucket's text names its value (a quarter reads the year and the month). */
const VALUE_USES: Record<BucketUnit, number> = { day: 1, week: 1, month: 1, quarter: 2, year: 1 };

function keySql(dialect: Dialect, key: KeyColumn): Condition {
  // A text groups by its exact value, as SQLite does: MySQL's collation would put `Café`, `cafe`
  // and `CAFE` in one group, named by whichever row came first.
  if (key.kind === 'column') return { sql: key.text && dialect === 'mysql' ? `${key.column} COLLATE utf8mb4_bin` : key.column, params: [] };
  if (key.type === 'date') return { sql: bucketOf(dialect, key.column, key.unit), params: [] };
  const local = localTime(dialect, key.column, key.shifts);
  // The local time is written once per use in the bucket: its bindings repeat with it.
  return { sql: bucketOf(dialect, local.sql, key.unit), params: Array.from({ length: VALUE_USES[key.unit] }, () => local.params).flat() };
}

/**
 * A measure's columns: its value (`m<i>`); for an average the count of values it divides by
 * (`n<i>`) and the database's own average to sort by (`o<i>`); for a decimal's sum on SQLite, read
 * as text, the sum to sort by (`o<i>`).
 */
function measureSql(dialect: Dialect, measure: MeasureColumn, index: number): string {
  const as = (name: string) => ` AS ${quote(`${name}${index}`)}`;
  const column = measure.column!;
  const exactSum =
    measure.scale === undefined ? `SUM(${column})` : dialect === 'mysql' ? `SUM(${column})` : `CAST(SUM(CAST(ROUND(${column} * ${10 ** measure.scale}) AS INTEGER)) AS TEXT)`;
  switch (measure.fn) {
    case 'count':
      return `COUNT(*)${as('m')}`;
    case 'sum':
      return sortsAsText(dialect, measure) ? `${exactSum}${as('m')}, SUM(${column})${as('o')}` : `${exactSum}${as('m')}`;
    case 'avg':
      return `${exactSum}${as('m')}, COUNT(${column})${as('n')}, AVG(${column})${as('o')}`;
    case 'min':
      return `MIN(${column})${as('m')}`;
    case 'max':
      return `MAX(${column})${as('m')}`;
    case 'count_distinct':
      return `COUNT(DISTINCT ${column})${as('m')}`;
  }
}

/** Whether the measure's value column is text (a decimal's exact sum on SQLite) and sorts by `o<i>`. */
function sortsAsText(dialect: Dialect, measure: MeasureColumn): boolean {
  return dialect === 'sqlite' && measure.scale !== undefined && (measure.fn === 'sum' || measure.fn === 'avg');
}

/** The column a measure sorts by: its value, or a number beside it. */
function sortColumn(dialect: Dialect, measure: MeasureColumn, index: number): string {
  return measure.fn === 'avg' || sortsAsText(dialect, measure) ? `o${index}` : `m${index}`;
}

/** A condition on a measure's value (`having`): `index` into the measures; `value` a number, or a decimal's, date's or stored datetime's text. */
export interface HavingColumn {
  index: number;
  op: '>=' | '<=' | '!=' | '=' | '>' | '<';
  value: number | string;
}

/** A decimal's text (`-12.5`) in whole units of its last place at `scale` (at most that many places). */
function decimalUnits(text: string, scale: number): number | bigint {
  const [whole, fraction = ''] = text.replace('-', '').split('.') as [string, string?];
  const units = BigInt(whole) * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, '0') || '0');
  const signed = text.startsWith('-') ? -units : units;
  return signed >= BigInt(Number.MIN_SAFE_INTEGER) && signed <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(signed) : signed;
}

/**
 * A group kept by `having`, on the measure's columns in the derived table, compared as the answer
 * writes the measure: a decimal's sum or average exactly at its scale (the average rounded half
 * away from zero first, as it is shown), a count as an integer, a date or datetime as stored.
 */
function havingSql(dialect: Dialect, measures: readonly MeasureColumn[], having: HavingColumn): Condition {
  const measure = measures[having.index]!;
  const column = (name: string) => quote(`${GROUPS}.${name}${having.index}`);
  // A sum of no values is shown as 0, an average or a least value of none as null (which meets nothing).
  const m = measure.fn === 'sum' ? `COALESCE(${column('m')}, 0)` : column('m');
  const n = column('n');
  const op = having.op === '!=' ? '<>' : having.op;
  const { scale } = measure;
  if (scale !== undefined && (measure.fn === 'sum' || measure.fn === 'avg' || measure.fn === 'min' || measure.fn === 'max')) {
    if (dialect === 'mysql') {
      const value = measure.fn === 'avg' ? `ROUND(${m} / NULLIF(${n}, 0), ${scale})` : m;
      return { sql: `${value} ${op} CAST(? AS DECIMAL(65, ${scale}))`, params: [String(having.value)] };
    }
    // SQLite: the sum is whole units as text (measureSql); a least or greatest value is the stored number.
    if (measure.fn === 'min' || measure.fn === 'max') return { sql: `${m} ${op} ?`, params: [Number(having.value)] };
    const units = `CAST(${m} AS INTEGER)`;
    const value =
      measure.fn === 'sum' ? units : `(CASE WHEN ${n} = 0 THEN NULL WHEN ${units} < 0 THEN -((2 * -${units} + ${n}) / (2 * ${n})) ELSE (2 * ${units} + ${n}) / (2 * ${n}) END)`;
    return { sql: `${value} ${op} ?`, params: [decimalUnits(String(having.value), scale)] };
  }
  return { sql: `${measure.fn === 'avg' ? column('o') : m} ${op} ?`, params: [having.value] };
}

/** `WHERE` over the derived table of groups: every condition of `having`. */
function havingClause(dialect: Dialect, measures: readonly MeasureColumn[], having: readonly HavingColumn[]): Condition {
  const conditions = having.map((condition) => havingSql(dialect, measures, condition));
  return conditions.length === 0 ? { sql: '', params: [] } : { sql: ` WHERE ${conditions.map((c) => c.sql).join(' AND ')}`, params: conditions.flatMap((c) => c.params) };
}

export interface GroupedTotals {
  table: string;
  where: Condition;
  keys: readonly KeyColumn[];
  measures: readonly MeasureColumn[];
  having: readonly HavingColumn[];
  order: readonly GroupOrder[];
  limit: number;
  offset: number;
}

/**
 * A page of the groups (`k<i>` their keys, `m<i>`/`n<i>` their measures) and `total_groups`, the
 * number of groups, on each row. Nulls sort last either way, and the keys (in order) break ties,
 * so that pages never overlap. With no keys: one group, the rows' totals.
 */
export function groupedTotals(dialect: Dialect, query: GroupedTotals): Condition {
  const keys = query.keys.map((key) => keySql(dialect, key));
  const selected = [...keys.map((key, i) => `${key.sql} AS ${quote(`k${i}`)}`), ...query.measures.map((measure, i) => measureSql(dialect, measure, i))];
  const grouping = keys.length > 0 ? ` GROUP BY ${keys.map((_, i) => quote(`k${i}`)).join(', ')}` : '';
  const inner = `SELECT ${selected.join(', ')} FROM ${quote(query.table)}${query.where.sql}${grouping}`;
  const terms: string[] = [];
  const used = new Set<string>();
  const term = (name: string, descending: boolean) => {
    if (used.has(name)) return;
    used.add(name);
    const column = quote(`${GROUPS}.${name}`);
    terms.push(`(${column} IS NULL)`, `${column}${descending ? ' DESC' : ''}`);
  };
  for (const { of, index, descending } of query.order) term(of === 'key' ? `k${index}` : sortColumn(dialect, query.measures[index]!, index), descending);
  for (let i = 0; i < keys.length; i++) term(`k${i}`, false);
  const ordering = terms.length > 0 ? ` ORDER BY ${terms.join(', ')}` : '';
  // The groups `having` drops are gone before the window counts them.
  const kept = havingClause(dialect, query.measures, query.having);
  return {
    sql: `SELECT ${quote(GROUPS)}.*, COUNT(*) OVER () AS ${quote('total_groups')} FROM (${inner}) ${quote(GROUPS)}${kept.sql}${ordering} LIMIT ? OFFSET ?`,
    params: [...keys.flatMap((key) => key.params), ...query.where.params, ...kept.params, query.limit, query.offset],
  };
}

const GROUPS = 'grouped';

/**
 * How many groups there are (for a page past the last, which has no row to carry the count): the
 * keys alone, and the measures too when `having` keeps only some groups.
 */
export function groupCount(dialect: Dialect, { table, where, keys, measures, having }: Pick<GroupedTotals, 'table' | 'where' | 'keys' | 'measures' | 'having'>): Condition {
  const sqls = keys.map((key) => keySql(dialect, key));
  if (sqls.length === 0 && having.length === 0) return { sql: `SELECT 1 AS ${quote('total_groups')}`, params: [] };
  const selected = [...sqls.map((key, i) => `${key.sql} AS ${quote(`k${i}`)}`), ...(having.length > 0 ? measures.map((measure, i) => measureSql(dialect, measure, i)) : [])];
  const grouping = sqls.length > 0 ? ` GROUP BY ${sqls.map((_, i) => quote(`k${i}`)).join(', ')}` : '';
  const inner = `SELECT ${selected.join(', ')} FROM ${quote(table)}${where.sql}${grouping}`;
  const kept = havingClause(dialect, measures, having);
  return {
    sql: `SELECT COUNT(*) AS ${quote('total_groups')} FROM (${inner}) ${quote(GROUPS)}${kept.sql}`,
    params: [...sqls.flatMap((key) => key.params), ...where.params, ...kept.params],
  };
}

/** The earliest and latest values of datetime columns among the rows (`lo<i>`, `hi<i>`): the span whose zone offsets a bucket needs. */
export function valueSpans(table: string, where: Condition, columns: readonly string[]): Condition {
  const selected = columns.map((column, i) => `MIN(${column}) AS ${quote(`lo${i}`)}, MAX(${column}) AS ${quote(`hi${i}`)}`);
  return { sql: `SELECT ${selected.join(', ')} FROM ${quote(table)}${where.sql}`, params: where.params };
}

/** `{id, label}` rows of `table` among `ids` (at least one) that also meet `conditions` (the reader's scope of them). */
export function labelsOf(table: string, display: string | undefined, ids: readonly unknown[], conditions: readonly Condition[]): Condition {
  const label = display ? quote(`${table}.${display}`) : 'NULL';
  const where = whereClause([{ sql: `${quote(`${table}.id`)} IN (${placeholders(ids.length)})`, params: [...ids] }, ...conditions]);
  return { sql: `SELECT ${quote(`${table}.id`)} AS ${quote('id')}, ${label} AS ${quote('label')} FROM ${quote(table)}${where.sql}`, params: where.params };
}
