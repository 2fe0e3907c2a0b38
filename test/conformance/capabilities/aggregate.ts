// Grouped totals (GET <list path>/aggregate) against the list's own rows: `measures=count` alone is
// the list's `meta.total` (with and without the trashed); every dimension the definition offers (a
// field, a relation keyed {id, label}, a date or datetime by a calendar unit, created_at also in a
// zone) groups the rows the list shows as they add up here, null values one group, last; every
// numeric field's sum is the sum of the values the list shows (decimals exactly, at their scale);
// `total_groups` counts the distinct keys. Dimensions go three to a request with up to seven sums
// beside the count: the counts of the combined groups imply each dimension's own. A text groups by
// its exact value on both databases ('Zürich' and 'zurich' are two groups on MariaDB too).
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { aggregateOffer, DATE_UNITS, type DateUnit, type Dimension, narrowedTotals, typeGroups, typeMeasures } from '../../../engine/aggregate/offer.ts';
import { MAX_GROUP_BY, MAX_GROUPS_PER_PAGE, MAX_MEASURES } from '../../../engine/aggregate/parse-aggregate-query.ts';
import { applyScope } from '../../../engine/definition/scope.ts';
import type { FieldDef, ResourceDef } from '../../../engine/definition/types.ts';
import type { ResourceContext } from '../context.ts';
import { API } from '../../helpers/app.ts';
import { bucket, dayIn, ZONES } from '../calendar.ts';

type Row = Record<string, any>;

/** Past this many rows the groups are checked on the first 100 only, narrowed by `filter[id]`. */
const READ_ALL_UP_TO = 300;

export function aggregateChecks(test: Test, context: () => ResourceContext) {
  test('aggregate: measures=count alone is the list’s meta.total, with and without the trashed', async () => {
    const ctx = context();
    const trashed = [...ctx.def.filters.values()].find((filter) => filter.kind === 'trashed');
    for (const filter of ['', ...(trashed ? [`filter[${trashed.name}]=with`] : [])]) {
      const list = await get(ctx, `${ctx.listPath}?per_page=1${filter ? `&${filter}` : ''}`);
      const totals = await get(ctx, `${ctx.listPath}/aggregate?measures=count${filter ? `&${filter}` : ''}`);
      assert.equal(totals.data, [{ key: {}, measures: { count: list.meta.total } }], `${filter || 'no filter'}: one group, the list's total`);
      assert.is(totals.meta.total_groups, 1);
    }
  });

  test('aggregate: each dimension’s groups, counts and sums are what the list’s rows add up to', async () => {
    const ctx = context();
    const { def } = ctx;
    const offer = aggregateOffer(def, ctx.registry);
    const { rows, narrowed } = await listedRows(ctx);
    assert.ok(rows.length > 0, 'rows to group');
    const labels = await relationLabels(ctx, [...offer.dimensions.values()], rows);
    const dimensions = [...offer.dimensions.values()];
    const datetime = (dimension: Dimension) => dimension.kind === 'date' && dimension.field.type === 'datetime';
    // created_at (the engine's to write, never a value far in the past or the future, whose zone
    // offsets the engine would work out year by year) by day in a zone, where more of the rows fall
    // on another day than in UTC, beside two dimensions that are not datetimes (which the zone leaves
    // as they are); the other dimensions three at a time in UTC, a date's units in turn, so that every
    // unit is checked across the resources.
    const created = dimensions.find((dimension) => dimension.name === 'created_at' && datetime(dimension));
    let dates = created ? 1 : 0;
    const asked = (dimension: Dimension): Asked => ({ dimension, unit: dimension.kind === 'date' ? DATE_UNITS[dates++ % DATE_UNITS.length]! : undefined });
    const batches: Array<{ dimensions: Asked[]; timeZone: string }> = [];
    let rest = dimensions;
    if (created) {
      const moved = (zone: string) => rows.filter((row) => row.created_at && dayIn(row.created_at, zone) !== row.created_at.slice(0, 10)).length;
      const beside = dimensions.filter((dimension) => !datetime(dimension)).slice(0, MAX_GROUP_BY - 1);
      batches.push({
        dimensions: [{ dimension: created, unit: 'day' }, ...beside.map(asked)],
        timeZone: ZONES.reduce((best, zone) => (moved(zone) > moved(best) ? zone : best)),
      });
      rest = dimensions.filter((dimension) => dimension !== created && !beside.includes(dimension));
    }
    for (let i = 0; i < rest.length; i += MAX_GROUP_BY) batches.push({ dimensions: rest.slice(i, i + MAX_GROUP_BY).map(asked), timeZone: 'UTC' });
    // Up to seven sums beside the count in each request; a number the definition does not let sum
    // (a unit price, a rate: its `totals`), its greatest value.
    const sums = [...offer.measures.values()].flatMap(({ field, functions }): Measured[] =>
      functions.includes('sum') ? [{ field, fn: 'sum' }] : functions.includes('max') && field.type !== 'date' && field.type !== 'datetime' ? [{ field, fn: 'max' }] : [],
    );
    const perRequest = MAX_MEASURES - 1;
    for (let i = 0; i < Math.max(batches.length, Math.ceil(sums.length / perRequest)); i++) {
      const { dimensions, timeZone } = batches[i] ?? { dimensions: [], timeZone: 'UTC' };
      await compareGroups(ctx, { rows, narrowed, labels, dimensions, sums: sums.slice(i * perRequest, (i + 1) * perRequest), timeZone });
    }
  });

  test('aggregate: a nested resource across every parent: the rows its export across every parent holds, its parent’s group what its path counts', async () => {
    const ctx = context();
    const { def } = ctx;
    if (!def.parent) return;
    const everyParent = await get(ctx, `${API}/${def.name}/aggregate?measures=count`);
    const exported = await ctx.client.get(`${API}/${def.name}/export?format=jsonl&fields=id`, { token: ctx.token });
    assert.is(exported.status, 200, exported.text.slice(0, 500));
    const rows = exported.text.split('\n').filter(Boolean).length;
    assert.equal(everyParent.data, [{ key: {}, measures: { count: rows } }], 'every parent’s rows, as exported');
    const own = await get(ctx, `${ctx.listPath}/aggregate?measures=count`);
    assert.ok(own.data[0].measures.count <= rows && rows > 0, `${rows} rows across every parent, ${own.data[0].measures.count} under this one`);
    // Grouped by the parent (where it is a dimension): each parent's group, and this one's its path's count.
    const byParent = [...aggregateOffer(def, ctx.registry).dimensions.values()].find(
      (dimension) => dimension.kind === 'relation' && dimension.relation.foreignKey === def.parent!.foreignKey,
    );
    if (!byParent) return;
    const groups = await get(ctx, `${API}/${def.name}/aggregate?group_by=${byParent.name}&per_page=${MAX_GROUPS_PER_PAGE}`);
    const counts = groups.data.map((group: { measures: { count: number } }) => group.measures.count);
    assert.is(
      counts.reduce((sum: number, count: number) => sum + count, 0),
      rows,
      'the groups of every parent add up to the rows',
    );
    const mine = groups.data.find((group: { key: Record<string, { id: number } | null> }) => group.key[byParent.name]?.id === ctx.parentId);
    if (own.data[0].measures.count > 0) assert.is(mine?.measures.count, own.data[0].measures.count, 'this parent’s group counts its rows');
  });

  test('aggregate: having keeps the groups whose count and exact sum meet it; total_groups counts them', async () => {
    const ctx = context();
    const offer = aggregateOffer(ctx.def, ctx.registry);
    const dimension = [...offer.dimensions.values()][0];
    // A sum compared exactly: an integer's or a decimal's (a float's is compared before it is shown rounded).
    const sum = [...offer.measures.values()].find(({ field, functions }) => functions.includes('sum') && (field.type === 'integer' || field.type === 'decimal'));
    // A long list: its first hundred rows (by `filter[id]`, which every list has), so that every group fits a page.
    const first = await get(ctx, `${ctx.listPath}?per_page=100`);
    const query = [
      first.meta.total > first.data.length && `filter[id]=${first.data.map((row: Row) => row.id).join(',')}`,
      dimension && `group_by=${dimension.kind === 'date' ? `${dimension.name}:month` : dimension.name}`,
      `measures=count${sum ? `,${sum.field.name}:sum` : ''}`,
      `per_page=${MAX_GROUPS_PER_PAGE}`,
    ].filter(Boolean);
    const url = `${ctx.listPath}/aggregate?${query.join('&')}`;
    const all = await get(ctx, url);
    assert.ok(all.data.length > 0 && all.meta.total_groups === all.data.length, 'every group on one page');
    const kept = async (having: string, holds: (group: any) => boolean) => {
      const body = await get(ctx, `${url}&having=${encodeURIComponent(having)}`);
      assert.equal(body.data, all.data.filter(holds), having);
      assert.is(body.meta.total_groups, body.data.length, `${having}: total_groups`);
    };
    const top = Math.max(...all.data.map((group: any) => group.measures.count));
    await kept(`count>=${top}`, (group) => group.measures.count >= top);
    await kept(`count<${top}`, (group) => group.measures.count < top);
    if (sum) {
      const value = all.data[0].measures[sum.field.name].sum;
      await kept(`${sum.field.name}:sum>=${value}`, (group) => Number(group.measures[sum.field.name].sum) >= Number(value));
      await kept(`count>=1,${sum.field.name}:sum!=${value}`, (group) => group.measures[sum.field.name].sum !== value);
    }
  });
}

/**
 * What the field types would give and the definition withholds: a field's `totals`, or a position
 * (`append`), which offers nothing unless it has one. Read from the definition, not from the offer
 * the route serves, so that a route that ignored them fails here.
 */
export function withheldTotals(def: ResourceDef): Array<{ field: FieldDef; dimension: boolean; functions: string[]; offered: readonly string[] }> {
  return [...def.fields.values()].flatMap((field) => {
    const asked = narrowedTotals(field) ?? (field.append ? { groupBy: false as const, measures: false as const } : undefined);
    if (!asked) return [];
    const byType = typeMeasures(def, field);
    const offered = asked.measures === false ? [] : (asked.measures ?? byType);
    const functions = byType.filter((fn) => !offered.includes(fn));
    const dimension = typeGroups(def, field) && asked.groupBy === false;
    return dimension || functions.length > 0 ? [{ field, dimension, functions, offered }] : [];
  });
}

/** Registered where the definition withholds something (withheldTotals). */
export function withheldTotalsChecks(test: Test, context: () => ResourceContext) {
  test('aggregate: what the definition withholds from the grouped totals is refused, naming what is offered', async () => {
    const ctx = context();
    const ask = async (query: string, status: number) => {
      const response = await ctx.client.get(`${ctx.listPath}/aggregate?${query}`, { token: ctx.token });
      assert.is(response.status, status, `${query}: ${response.text}`);
      return response.body;
    };
    const withheld = withheldTotals(ctx.def);
    // Each kind in one request: every name is reported.
    const groups = withheld.filter((entry) => entry.dimension).map(({ field }) => field.name);
    if (groups.length > 0) {
      const asked = withheld.filter((entry) => entry.dimension).map(({ field }) => (field.type === 'date' || field.type === 'datetime' ? `${field.name}:month` : field.name));
      assert.match((await ask(`group_by=${asked.join(',')}`, 400)).message, `Requested group(s) \`${groups.join(', ')}\` are not allowed`);
    }
    // A field with no measure left is not a measure at all: unknown, as a name the resource does not offer.
    const unknown = withheld.filter((entry) => entry.offered.length === 0).flatMap(({ field, functions }) => functions.map((fn) => `${field.name}:${fn}`));
    if (unknown.length > 0) assert.match((await ask(`measures=${unknown.join(',')}`, 400)).message, `Requested measure(s) \`${unknown.join(', ')}\` are not allowed`);
    const narrowed = withheld.filter((entry) => entry.offered.length > 0 && entry.functions.length > 0);
    if (narrowed.length > 0) {
      const asked = narrowed.flatMap(({ field, functions }) => functions.map((fn) => `${field.name}:${fn}`));
      assert.equal(
        (await ask(`measures=${asked.join(',')}`, 422)).errors.measures,
        narrowed.flatMap(({ field, functions, offered }) => functions.map((fn) => `\`${field.name}:${fn}\`: the ${field.label} field takes ${offered.join(', ')}.`)),
      );
    }
  });
}

async function get(ctx: ResourceContext, url: string): Promise<any> {
  const response = await ctx.client.get(url, { token: ctx.token });
  assert.is(response.status, 200, `${url}: ${response.text.slice(0, 500)}`);
  return response.body;
}

/**
 * The rows the list shows, page after page (the default order, id breaking ties). A long list
 * (another suite's rows beside this one's) gives its first hundred rows, and the grouped totals are
 * then asked for those rows alone (`filter[id]`, which every list has).
 */
async function listedRows(ctx: ResourceContext): Promise<{ rows: Row[]; narrowed: string }> {
  const rows: Row[] = [];
  for (let page = 1; ; page++) {
    const body = await get(ctx, `${ctx.listPath}?per_page=100&page=${page}`);
    if (page === 1 && body.meta.total > READ_ALL_UP_TO) {
      assert.ok(ctx.def.filters.has('id'), 'a long list narrows by filter[id]');
      return { rows: body.data, narrowed: `&filter[id]=${body.data.map((row: Row) => row.id).join(',')}` };
    }
    rows.push(...body.data);
    if (page >= body.meta.last_page) return { rows, narrowed: '' };
  }
}

/** Each relation dimension's labels by id: the target's display field, among the target's rows (its scope, trashed or not). */
async function relationLabels(ctx: ResourceContext, dimensions: Dimension[], rows: Row[]): Promise<Map<string, Map<number, unknown>>> {
  const labels = new Map<string, Map<number, unknown>>();
  for (const dimension of dimensions) {
    if (dimension.kind !== 'relation') continue;
    const byId = new Map<number, unknown>();
    labels.set(dimension.name, byId);
    const ids = [...new Set(rows.map((row) => row[dimension.relation.foreignKey]).filter((id) => id !== null && id !== undefined))];
    if (ids.length === 0 || !dimension.display) continue;
    const { target } = dimension;
    const query = ctx.app.knex(target.table).whereIn(`${target.table}.id`, ids);
    applyScope(query, target, ctx.registry, ctx.app.knex);
    for (const row of await query.select(`${target.table}.id as id`, `${target.table}.${dimension.display} as label`)) byId.set(Number(row.id), row.label ?? null);
  }
  return labels;
}

interface Asked {
  dimension: Dimension;
  unit?: DateUnit;
}

interface Measured {
  field: FieldDef;
  fn: 'sum' | 'max';
}

interface Comparison {
  rows: Row[];
  narrowed: string;
  labels: Map<string, Map<number, unknown>>;
  dimensions: Asked[];
  sums: Measured[];
  timeZone: string;
}

async function compareGroups(ctx: ResourceContext, { rows, narrowed, labels, dimensions, sums, timeZone }: Comparison): Promise<void> {
  const names = dimensions.map(({ dimension, unit }) => (unit ? `${dimension.name}:${unit}` : dimension.name));
  const measures = ['count', ...sums.map(({ field, fn }) => `${field.name}:${fn}`)];
  const query = `group_by=${names.join(',')}&measures=${measures.join(',')}&tz=${encodeURIComponent(timeZone)}&per_page=${MAX_GROUPS_PER_PAGE}${narrowed}`;
  const body = await get(ctx, `${ctx.listPath}/aggregate?${query}`);
  assert.equal(body.meta.group_by, names, query);

  // What the list's rows add up to, by key.
  const expected = new Map<string, { key: Record<string, unknown>; rows: Row[] }>();
  for (const row of rows) {
    const key = Object.fromEntries(dimensions.map((asked, i) => [names[i], keyOf(asked, row, labels, timeZone)]));
    const id = JSON.stringify(key);
    if (!expected.has(id)) expected.set(id, { key, rows: [] });
    expected.get(id)!.rows.push(row);
  }
  const byKey = (a: { key: unknown }, b: { key: unknown }) => (JSON.stringify(a.key) < JSON.stringify(b.key) ? -1 : 1);
  const groups = [...body.data].map((group: any) => ({ key: group.key, count: group.measures.count })).sort(byKey);
  const wanted = [...expected.values()].map((group) => ({ key: group.key, count: group.rows.length })).sort(byKey);
  assert.equal(groups, wanted, `${query}: the groups and their counts`);
  assert.is(body.meta.total_groups, expected.size, `${query}: total_groups counts the distinct keys`);

  // Null keys sort last, whatever the order of the others.
  const nulls = body.data.map((group: any) => group.key[names[0]!] === null);
  assert.ok(nulls.indexOf(true) < 0 || nulls.slice(nulls.indexOf(true)).every(Boolean), `${query}: null keys last`);

  for (const group of body.data) {
    const members = expected.get(JSON.stringify(Object.fromEntries(names.map((name) => [name, group.key[name]]))))!.rows;
    for (const { field, fn } of sums) {
      const got = group.measures[field.name]?.[fn];
      const values = members.map((row) => row[field.name]).filter((value) => value !== null && value !== undefined);
      const where = `${query}: ${field.name}:${fn} of ${JSON.stringify(group.key)}`;
      if (field.type === 'decimal') {
        // Exact, at the field's scale.
        const scale = field.scale ?? 2;
        const units = values.map((value) => decimalUnits(String(value), scale));
        const expected = fn === 'sum' ? units.reduce((total, value) => total + value, 0n) : units.reduce((most, value) => (value > most ? value : most), units[0]!);
        assert.is(got, values.length === 0 && fn === 'max' ? null : decimalText(expected, scale), where);
        continue;
      }
      const numbers = values.map(Number);
      const expected = fn === 'sum' ? numbers.reduce((total, value) => total + value, 0) : numbers.length === 0 ? null : Math.max(...numbers);
      if (expected === null || field.type === 'integer') assert.is(got, expected, where);
      else {
        assert.type(got, 'number', where);
        assert.ok(Math.abs(got - expected) <= 1e-6 * Math.max(1, Math.abs(expected)), `${where}: ${got} ≠ ${expected}`);
      }
    }
  }
}

/** A row's key for one dimension, as the grouped totals write it. */
function keyOf({ dimension, unit }: Asked, row: Row, labels: Map<string, Map<number, unknown>>, timeZone: string): unknown {
  if (dimension.kind === 'relation') {
    const id = row[dimension.relation.foreignKey];
    return id === null || id === undefined ? null : { id: Number(id), label: labels.get(dimension.name)!.get(Number(id)) ?? null };
  }
  const value = row[dimension.name];
  if (value === null || value === undefined) return null;
  if (dimension.kind === 'field') return value;
  // A date is its day; a datetime (UTC in the list) the day it is in the zone.
  const day = dimension.field.type === 'date' || timeZone === 'UTC' ? String(value).slice(0, 10) : dayIn(String(value), timeZone);
  return bucket(day, unit!);
}

/** `-12.3400` at scale 4 → -123400n. */
function decimalUnits(text: string, scale: number): bigint {
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = text.replace('-', '').split('.') as [string, string?];
  assert.ok(fraction.length <= scale, `${text} has at most ${scale} places`);
  const units = BigInt(whole || '0') * 10n ** BigInt(scale) + BigInt(fraction.padEnd(scale, '0') || '0');
  return negative ? -units : units;
}

function decimalText(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}
