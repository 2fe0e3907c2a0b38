// Reads a grouped total's query: `group_by`, `measures`, `sort`, `page`, `per_page`, `tz`, and
// the list's `filter[...]`. As for a list, a name the resource does not offer is a 400 listing
// the ones it does; a bound or a value that cannot be (a fourth dimension, a unit that does not
// exist, the sum of a text) is a 422 naming the parameter. Nothing here touches the database.
import type { Registry } from '../definition/registry.ts';
import type { ResourceDef } from '../definition/types.ts';
import { BadRequestError, ValidationError, type FieldErrors } from '../errors/http-errors.ts';
import { isCalendarDate, isDateTime } from '../schema/string-formats.ts';
import { storedTimestampOf } from '../serialize/value-formats.ts';
import { commaList, parseFilters, parsePositiveInteger, parseTimeZone, MAX_PAGE, type ListQuery, type RawQuery } from '../list/parse-list-query.ts';
import { aggregateOffer, DATE_UNITS, DEFAULT_DATE_UNIT, MEASURE_FUNCTIONS, type DateUnit, type Dimension, type MeasureFunction } from './offer.ts';

/** The grouped totals' path: the list's, then `/aggregate`. */
export function aggregatePath(prefix: string, listPath: string): string {
  return `${prefix}${listPath}/aggregate`;
}

/**
 * A nested resource's grouped totals across every parent (every order's lines: sales by
 * product), at the resource's name as its export across every parent
 * (`/sales/order-lines/aggregate`); none for a top-level resource.
 */
export function allParentsAggregatePath(def: ResourceDef, prefix: string): string | undefined {
  return def.parent && def.operations.has('list') ? `${prefix}/${def.name}/aggregate` : undefined;
}

export const MAX_GROUP_BY = 3;
export const MAX_MEASURES = 8;
export const DEFAULT_GROUPS_PER_PAGE = 100;
export const MAX_GROUPS_PER_PAGE = 1000;

/** A dimension as asked: `key` is its name in the answer (`state`, `partner`, `date_order:month`). */
export interface GroupBy {
  key: string;
  dimension: Dimension;
  unit?: DateUnit;
}

export type Measure = { key: 'count'; fn: 'count' } | { key: string; fn: MeasureFunction; field: string };

export interface GroupSort {
  /** A group key (`state`) or a measure (`count`, `amount_total:sum`). */
  key: string;
  descending: boolean;
}

export const HAVING_OPERATORS = ['>=', '<=', '!=', '=', '>', '<'] as const;
export type HavingOperator = (typeof HAVING_OPERATORS)[number];

/**
 * A condition on a group's measure (`having=count>5,amount_total:sum>=1000`): `measure` indexes the
 * measures asked for; `value` is a number, or the text a decimal, a date or a stored datetime
 * compares exactly with.
 */
export interface Having {
  measure: number;
  op: HavingOperator;
  value: number | string;
}

export interface AggregateQuery extends Pick<ListQuery, 'filters' | 'trashed' | 'search' | 'timeZone' | 'page' | 'perPage'> {
  groupBy: GroupBy[];
  measures: Measure[];
  sort: GroupSort[];
  /** The groups kept: those whose measures meet every condition. */
  having: Having[];
  /** Whether `page` was given (a CSV without it holds every group). */
  pageAsked: boolean;
}

export function parseAggregateQuery(query: RawQuery, def: ResourceDef, registry: Registry): AggregateQuery {
  const offer = aggregateOffer(def, registry);
  const errors: FieldErrors = {};
  const { filters, trashed, search } = parseFilters(query, def, errors);
  const groupBy = parseGroupBy(commaList(query.group_by), offer.dimensions, errors);
  const measures = parseMeasures(commaList(query.measures), offer.measures, errors);
  const sort = parseGroupSort(commaList(query.sort), groupBy, measures);
  const having = parseHaving(commaList(query.having), measures, def, errors);
  const page = parsePositiveInteger(query.page, 'page', 1, MAX_PAGE, errors);
  const perPage = parsePositiveInteger(query.per_page, 'per_page', DEFAULT_GROUPS_PER_PAGE, MAX_GROUPS_PER_PAGE, errors);
  const timeZone = parseTimeZone(query, errors);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { filters, trashed, search, groupBy, measures, sort, having, page, perPage, pageAsked: query.page !== undefined, ...(timeZone && { timeZone }) };
}

function parseGroupBy(requested: string[], dimensions: ReadonlyMap<string, Dimension>, errors: FieldErrors): GroupBy[] {
  const unknown = requested.map((entry) => entry.split(':')[0]!).filter((name) => !dimensions.has(name));
  if (unknown.length > 0) {
    const dates = [...dimensions.values()].some((dimension) => dimension.kind === 'date')
      ? ` A date or datetime takes a unit: ${DATE_UNITS.map((unit) => `\`:${unit}\``).join(', ')}.`
      : '';
    throw new BadRequestError(`Requested group(s) \`${unknown.join(', ')}\` are not allowed. Allowed group(s) are \`${[...dimensions.keys()].join(', ')}\`.${dates}`);
  }
  const problems: string[] = [];
  const groups = new Map<string, GroupBy>();
  for (const entry of requested) {
    const [name, unit, ...rest] = entry.split(':') as [string, string | undefined, ...string[]];
    const dimension = dimensions.get(name)!;
    if (dimension.kind !== 'date') {
      if (unit !== undefined) problems.push(`\`${name}\` is not a date: it takes no unit.`);
      else groups.set(name, { key: name, dimension });
      continue;
    }
    const chosen = unit ?? DEFAULT_DATE_UNIT;
    if (rest.length > 0 || !(DATE_UNITS as readonly string[]).includes(chosen)) {
      problems.push(`\`${entry}\`: the unit must be one of ${DATE_UNITS.join(', ')}.`);
      continue;
    }
    const key = `${name}:${chosen}`;
    groups.set(key, { key, dimension, unit: chosen as DateUnit });
  }
  if (groups.size > MAX_GROUP_BY) problems.push(`At most ${MAX_GROUP_BY} dimensions may be grouped by.`);
  if (problems.length > 0) errors.group_by = problems;
  return [...groups.values()];
}

/** What `group_by` may name: each dimension, a date with its units. */
export function groupNames(dimensions: ReadonlyMap<string, Dimension>): string[] {
  return [...dimensions.values()].flatMap((dimension) =>
    dimension.kind === 'date' ? [dimension.name, ...DATE_UNITS.map((unit) => `${dimension.name}:${unit}`)] : [dimension.name],
  );
}

function parseMeasures(requested: string[], offered: ReturnType<typeof aggregateOffer>['measures'], errors: FieldErrors): Measure[] {
  if (requested.length === 0) return [{ key: 'count', fn: 'count' }];
  const unknown = requested.filter((entry) => entry !== 'count' && !offered.has(entry.split(':')[0]!));
  if (unknown.length > 0) {
    throw new BadRequestError(`Requested measure(s) \`${unknown.join(', ')}\` are not allowed. Allowed measure(s) are \`${measureNames(offered).join(', ')}\`.`);
  }
  const problems: string[] = [];
  const measures = new Map<string, Measure>();
  for (const entry of requested) {
    if (entry === 'count') {
      measures.set('count', { key: 'count', fn: 'count' });
      continue;
    }
    const [name, fn, ...rest] = entry.split(':') as [string, string | undefined, ...string[]];
    const { field, functions } = offered.get(name)!;
    if (fn === undefined || rest.length > 0 || !(MEASURE_FUNCTIONS as readonly string[]).includes(fn)) {
      problems.push(`\`${entry}\`: name a function, one of ${MEASURE_FUNCTIONS.join(', ')} (\`${name}:${functions[0]}\`).`);
    } else if (!(functions as readonly string[]).includes(fn)) {
      problems.push(`\`${entry}\`: the ${field.label} field takes ${functions.join(', ')}.`);
    } else measures.set(entry, { key: entry, fn: fn as MeasureFunction, field: name });
  }
  if (measures.size > MAX_MEASURES) problems.push(`At most ${MAX_MEASURES} measures may be asked for.`);
  if (problems.length > 0) errors.measures = problems;
  return [...measures.values()];
}

/** What `measures` may name: `count`, then each field with each of its functions. */
export function measureNames(offered: ReturnType<typeof aggregateOffer>['measures']): string[] {
  return ['count', ...[...offered.values()].flatMap(({ field, functions }) => functions.map((fn) => `${field.name}:${fn}`))];
}

/**
 * `sort`: the groups' keys and the measures asked for; by default the keys in order. A date
 * grouped by a unit may be named without it (`date_order` for `date_order:month`).
 */
function parseGroupSort(requested: string[], groupBy: GroupBy[], measures: Measure[]): GroupSort[] {
  const allowed = [...groupBy.map((group) => group.key), ...measures.map((measure) => measure.key)];
  const byName = new Map(groupBy.filter((group) => group.unit !== undefined).map((group) => [group.dimension.name, group.key]));
  const sort = requested.map((entry) => {
    const name = entry.replace(/^-/, '');
    return { key: allowed.includes(name) ? name : (byName.get(name) ?? name), descending: entry.startsWith('-') };
  });
  const unknown = sort.filter((entry) => !allowed.includes(entry.key)).map((entry) => entry.key);
  if (unknown.length > 0) {
    throw new BadRequestError(`Requested sort(s) \`${unknown.join(', ')}\` is not allowed. Allowed sort(s) are \`${allowed.join(', ')}\`.`);
  }
  return sort;
}

/** `<measure><operator><value>`: the measure as `measures` names it, then `>=`, `<=`, `!=`, `=`, `>` or `<`. */
export const HAVING_PATTERN = '^[a-z_][a-z0-9_]*(:[a-z_]+)?\\s*(>=|<=|!=|=|>|<)\\s*\\S.*$';
const HAVING_ENTRY = /^([a-z_][a-z0-9_]*(?::[a-z_]+)?)\s*(>=|<=|!=|=|>|<)\s*(\S.*)$/;

/**
 * `having`: conditions on the measures asked for (all must hold), as Odoo's read_group takes them.
 * A measure not asked for is a 400 naming the ones that were; a value its measure cannot compare
 * with (a word for a count, more decimals than the field keeps, a date that is none) a 422.
 */
function parseHaving(requested: string[], measures: Measure[], def: ResourceDef, errors: FieldErrors): Having[] {
  if (requested.length === 0) return [];
  const problems: string[] = [];
  const parsed = requested.map((entry) => ({ entry, match: HAVING_ENTRY.exec(entry) }));
  const asked = measures.map((measure) => measure.key);
  const unknown = parsed.filter(({ match }) => match && !asked.includes(match[1]!)).map(({ match }) => match![1]!);
  if (unknown.length > 0) {
    throw new BadRequestError(
      `Requested having measure(s) \`${unknown.join(', ')}\` are not allowed: a condition names a measure asked for in \`measures\`. Asked measures are \`${asked.join(', ')}\`.`,
    );
  }
  const having: Having[] = [];
  for (const { entry, match } of parsed) {
    if (!match) {
      problems.push(`\`${entry}\`: write a measure, an operator (${HAVING_OPERATORS.join(', ')}) and a value (\`count>5\`).`);
      continue;
    }
    const index = asked.indexOf(match[1]!);
    const value = havingValue(measures[index]!, def, match[3]!.trim());
    if (typeof value === 'object') problems.push(`\`${entry}\`: ${value.error}`);
    else having.push({ measure: index, op: match[2] as HavingOperator, value });
  }
  if (requested.length > MAX_MEASURES) problems.push(`At most ${MAX_MEASURES} conditions may be given.`);
  if (problems.length > 0) errors.having = problems;
  return having;
}

const NUMBER = /^-?(\d+)(?:\.(\d+))?$/;

/** What a measure's value is compared with, or why the text cannot be. */
function havingValue(measure: Measure, def: ResourceDef, text: string): number | string | { error: string } {
  const field = measure.fn === 'count' || measure.fn === 'count_distinct' ? undefined : def.fields.get(measure.field);
  if (field?.type === 'date') return isCalendarDate(text) ? text : { error: 'the value must be a date (YYYY-MM-DD).' };
  if (field?.type === 'datetime') return isDateTime(text) ? storedTimestampOf(text) : { error: 'the value must be a date and time (2026-12-05T10:30:00Z).' };
  const number = NUMBER.exec(text);
  if (!number || !Number.isFinite(Number(text))) return { error: 'the value must be a number.' };
  if (field?.type !== 'decimal') return Number(text);
  const scale = field.scale ?? 2;
  // Compared exactly with the decimal, at its scale: more places than it keeps could not be met exactly.
  if ((number[2]?.length ?? 0) > scale) return { error: `the value must be a number with at most ${scale} decimals, the field’s scale.` };
  // SQLite sums a decimal in whole units of its last place, as a 64-bit integer: no total lies beyond.
  const units = BigInt(number[1]!) * 10n ** BigInt(scale) + BigInt((number[2] ?? '').padEnd(scale, '0') || '0');
  if (units > MAX_UNITS) return { error: `the value must be within ±${unitsText(MAX_UNITS, scale)}.` };
  return text;
}

const MAX_UNITS = 2n ** 63n - 1n;

/** Whole units of the last place as a decimal's text at `scale`. */
function unitsText(units: bigint, scale: number): string {
  const digits = units.toString().padStart(scale + 1, '0');
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}
