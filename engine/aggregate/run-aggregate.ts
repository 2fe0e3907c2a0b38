// Runs a grouped total: the groups of the rows `where` selects, a page of them with their count,
// keys and measures written as the answer gives them. What is the caller's: which rows (the
// list's conditions for a user, or every row on the command line), the time zone, and whose
// related records' names a key may show. A datetime is bucketed in the zone by offsets worked out
// here (engine/calendar/zone-offsets.ts), not by the database's zone tables.
import type { Registry } from '../definition/registry.ts';
import type { ResourceDef } from '../definition/types.ts';
import type { Dialect } from '../sql/dialect.ts';
import { groupCount, groupedTotals, labelsOf, valueSpans, type KeyColumn, type MeasureColumn } from '../sql/grouped-totals.ts';
import { quote, type Condition } from '../sql/quote.ts';
import type { Row, Statements } from '../sql/statements.ts';
import { formatDate, formatDecimal, formatTimestamp } from '../serialize/value-formats.ts';
import type { AggregateQuery, GroupBy, Measure } from './parse-aggregate-query.ts';
import { offsetRangesByYear, type OffsetRange } from '../calendar/zone-offsets.ts';

export interface AggregateRun {
  def: ResourceDef;
  registry: Registry;
  statements: Pick<Statements, 'all'>;
  dialect: Dialect;
  asked: AggregateQuery;
  /** The rows grouped (`WHERE ...`, or empty for every row). */
  where: Condition;
  timeZone: string;
  /** The conditions on a related resource's rows whose names a key may show; undefined: none may be shown. */
  labelRows(target: ResourceDef): Condition[] | undefined;
}

export interface Group {
  key: Record<string, unknown>;
  measures: Record<string, unknown>;
}

/** A page of groups and how many there are. */
/** One page of groups, and how many groups there are in all. */
export interface GroupsPage {
  groups: Group[];
  totalGroups: number;
}

/**
 * Every group, page after page of `perPage` (a CSV of all the groups, the command line's table):
 * `read` reads a page; `first`, page 1 when it has been read already.
 */
export async function* everyGroup(read: (page: number) => Promise<GroupsPage>, perPage: number, first?: GroupsPage): AsyncGenerator<Group[]> {
  let page = 1;
  let current = first ?? (await read(page));
  for (;;) {
    yield current.groups;
    if (current.groups.length < perPage || page * perPage >= current.totalGroups) return;
    current = await read(++page);
  }
}

export async function runAggregate(run: AggregateRun): Promise<GroupsPage> {
  const { def, dialect, asked, where, statements } = run;
  const keys = await keyColumns(run);
  const measures = asked.measures.map((measure) => measureColumn(def, measure));
  const order = asked.sort.map(({ key, descending }) => {
    const group = asked.groupBy.findIndex((candidate) => candidate.key === key);
    return group >= 0
      ? { of: 'key' as const, index: group, descending }
      : { of: 'measure' as const, index: asked.measures.findIndex((measure) => measure.key === key), descending };
  });
  const offset = (asked.page - 1) * asked.perPage;
  const having = asked.having.map(({ measure, op, value }) => ({ index: measure, op, value }));
  const page = groupedTotals(dialect, { table: def.table, where, keys, measures, having, order, limit: asked.perPage, offset });
  const rows = await statements.all(page.sql, page.params);
  const totalGroups = rows.length > 0 ? Number(rows[0]!.total_groups) : offset === 0 ? 0 : await countGroups(run, { table: def.table, where, keys, measures, having });
  const labels = await relationLabels(run, rows);
  const groups = rows.map((row) => ({
    key: Object.fromEntries(asked.groupBy.map((group, i) => [group.key, keyValue(group, row[`k${i}`], labels[i])])),
    measures: measureValues(def, asked.measures, row),
  }));
  return { groups, totalGroups };
}

async function countGroups({ dialect, statements }: AggregateRun, groups: Parameters<typeof groupCount>[1]): Promise<number> {
  const count = groupCount(dialect, groups);
  const [row] = await statements.all(count.sql, count.params);
  return Number(row!.total_groups);
}

/**
 * The keys as SQL. A datetime's bucket needs its zone's offsets over the span of its values (one
 * statement for every such dimension); a zone that keeps one offset, UTC first, needs no span.
 */
async function keyColumns({ def, asked, where, timeZone, statements }: AggregateRun): Promise<KeyColumn[]> {
  const { groupBy } = asked;
  const column = (name: string) => quote(`${def.table}.${name}`);
  const datetimes = groupBy.filter((group) => group.dimension.kind === 'date' && group.dimension.field.type === 'datetime');
  const spans = new Map<string, OffsetRange[]>();
  if (datetimes.length > 0) {
    const names = [...new Set(datetimes.map((group) => group.dimension.name))];
    if (timeZone === 'UTC') for (const name of names) spans.set(name, [{ offset: 0 }]);
    else {
      const read = valueSpans(def.table, where, names.map(column));
      const [row] = await statements.all(read.sql, read.params);
      names.forEach((name, i) => {
        const [low, high] = [instant(row?.[`lo${i}`]), instant(row?.[`hi${i}`])];
        spans.set(name, low === undefined || high === undefined ? [{ offset: 0 }] : offsetRangesByYear(timeZone, low, high));
      });
    }
  }
  return groupBy.map(({ dimension, unit }): KeyColumn => {
    if (dimension.kind === 'relation') return { kind: 'column', column: column(dimension.relation.foreignKey) };
    if (dimension.kind === 'field') return { kind: 'column', column: column(dimension.name), text: dimension.field.type === 'string' };
    if (dimension.field.type === 'date') return { kind: 'bucket', column: column(dimension.name), unit: unit!, type: 'date' };
    return { kind: 'bucket', column: column(dimension.name), unit: unit!, type: 'datetime', shifts: spans.get(dimension.name)! };
  });
}

/** A stored UTC datetime (`2026-03-29 01:00:00.000000`, or a Date) as ms since the epoch. */
function instant(value: unknown): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) return value.getTime();
  return Date.parse(`${String(value).replace(' ', 'T').slice(0, 23)}Z`);
}

function measureColumn(def: ResourceDef, measure: Measure): MeasureColumn {
  if (measure.fn === 'count') return { fn: 'count' };
  const field = def.fields.get(measure.field)!;
  const column = quote(`${def.table}.${field.name}`);
  return { fn: measure.fn, column, ...(field.type === 'decimal' && { scale: field.scale ?? 2 }) };
}

/** Each relation dimension's labels by id, among the related rows the caller may read (one statement a dimension). */
async function relationLabels({ asked, statements, labelRows }: AggregateRun, rows: readonly Row[]): Promise<Array<Map<number, unknown> | undefined>> {
  return Promise.all(
    asked.groupBy.map(async ({ dimension }, i) => {
      if (dimension.kind !== 'relation') return undefined;
      const labels = new Map<number, unknown>();
      const { target, display } = dimension;
      const ids = [
        ...new Set(
          rows
            .map((row) => row[`k${i}`])
            .filter((id) => id !== null && id !== undefined)
            .map(Number),
        ),
      ];
      const readable = labelRows(target);
      if (ids.length === 0 || !readable || !display) return labels;
      const read = labelsOf(target.table, display, ids, readable);
      for (const row of await statements.all(read.sql, read.params)) labels.set(Number(row.id), row.label ?? null);
      return labels;
    }),
  );
}

function keyValue(group: GroupBy, value: unknown, labels: Map<number, unknown> | undefined): unknown {
  if (value === null || value === undefined) return null;
  const { dimension } = group;
  if (dimension.kind === 'relation') return { id: Number(value), label: labels?.get(Number(value)) ?? null };
  if (dimension.kind === 'date') return String(value);
  switch (dimension.field.type) {
    case 'boolean':
      return Boolean(Number(value));
    case 'integer':
      return Number(value);
    default:
      return value;
  }
}

/** `{count: 12, amount_total: {sum: "1234.5000", avg: "102.8750"}}`: counts as integers, decimals at their scale. */
function measureValues(def: ResourceDef, measures: readonly Measure[], row: Row): Record<string, unknown> {
  const values: Record<string, any> = {};
  measures.forEach((measure, i) => {
    const value = row[`m${i}`];
    if (measure.fn === 'count') {
      values.count = Number(value);
      return;
    }
    const field = def.fields.get(measure.field)!;
    (values[field.name] ??= {})[measure.fn] = fieldMeasure(field.type, field.scale ?? 2, measure.fn, value, row[`n${i}`]);
  });
  return values;
}

function fieldMeasure(type: string, scale: number, fn: Measure['fn'], value: unknown, counted: unknown): unknown {
  if (fn === 'count_distinct') return Number(value);
  if (fn === 'min' || fn === 'max') {
    if (type === 'date') return formatDate(value);
    if (type === 'datetime') return formatTimestamp(value);
    if (type === 'decimal') return formatDecimal(value, scale);
    return value === null || value === undefined ? null : Number(value);
  }
  const sum = value ?? 0;
  if (type === 'integer' && fn === 'sum') return Number(sum);
  if (type !== 'decimal') return fn === 'sum' ? withoutNoise(Number(sum)) : Number(counted) === 0 ? null : withoutNoise(Number(sum) / Number(counted));
  const units = scaledUnits(sum, scale);
  if (fn === 'sum') return decimalText(units, scale);
  const n = BigInt(Number(counted));
  if (n === 0n) return null;
  // Rounded half away from zero, as the decimals of the documents are.
  const quotient = (2n * (units < 0n ? -units : units) + n) / (2n * n);
  return decimalText(units < 0n ? -quotient : quotient, scale);
}

/**
 * A floating-point total to 15 significant digits: the databases add in their own order, and
 * 0.1 + 0.2 is 0.30000000000000004 on one and 0.3 on the other.
 */
function withoutNoise(value: number): number {
  return Number(value.toPrecision(15));
}

/**
 * A decimal sum in whole units of its last place: MySQL's DECIMAL text (`1234.5000`), or SQLite's
 * exact sum already in those units (as text: it may pass 2^53).
 */
function scaledUnits(value: unknown, scale: number): bigint {
  const text = String(value);
  if (!text.includes('.')) return typeof value === 'number' ? BigInt(Math.round(value * 10 ** scale)) : BigInt(text);
  const [whole, fraction = ''] = text.split('.') as [string, string?];
  const negative = whole.startsWith('-');
  const units = BigInt(whole.replace('-', '') || '0') * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, '0').slice(0, scale) || '0');
  return negative ? -units : units;
}

function decimalText(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}
