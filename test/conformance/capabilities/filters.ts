// Each declared filter, checked against the records it should and should not return; an exact or
// list filter (every `filter[id]`) also with a comma list of two values, finding both.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import type { FilterDef } from '../../../engine/definition/types.ts';
import type { ResourceContext } from '../context.ts';
import { bucket, dayIn, ZONES } from '../calendar.ts';
import { filterValue, sameValue, sampleValue } from '../payloads.ts';
import { DATE_UNITS } from '../../../engine/aggregate/offer.ts';

export function filterChecks(test: Test, context: () => ResourceContext) {
  test('filters: each declared filter narrows the list as its kind says', async () => {
    const ctx = context();
    let all = await listAll(ctx, '');
    // A read-only column that behaviours fill later (a document's number, given at confirmation)
    // gets a value written straight to one record, so that its filter has something to find.
    const unset = [...ctx.def.filters.values()].filter(
      (filter) => filter.kind !== 'trashed' && filter.field!.readOnly && filter.field!.stored && all.every((row) => row[filter.field!.name] == null),
    );
    if (unset.length > 0 && all.length > 0) {
      const values: Record<string, unknown> = {};
      for (const { field } of unset) {
        // A foreign key gets the id of a related record (an invoice's sales order): the first
        // one, else one made through the API of a resource of its table (a scrap's operation: a
        // receipt), as a run of a few resources may have none yet.
        const relation = [...ctx.def.relations.values()].find((r) => r.kind === 'belongsTo' && r.foreignKey === field!.name);
        const table = relation && ctx.registry.get(relation.resource).table;
        const related = table ? (await ctx.app.knex(table).orderBy('id').first('id'))?.id : undefined;
        const maker = table && ctx.registry.all().find((other) => other.table === table && other.operations.has('create') && !other.parent);
        values[field!.name] = relation ? (related ?? (maker ? await ctx.createRecord(maker.name) : undefined)) : sampleValue(field!, ctx.payload, 7, ctx.def);
      }
      await ctx.app
        .knex(ctx.def.table)
        .where('id', all[all.length - 1]!.id)
        .update(values);
      all = await listAll(ctx, '');
    }
    const total = (await ctx.client.get(ctx.listPath, { token: ctx.token })).body.meta.total;
    for (const filter of ctx.def.filters.values()) {
      if (filter.kind === 'trashed') continue;
      const field = filter.field!;
      // A comma splits an exact or list filter's value (the original's exact filters do): samples hold none.
      const samples = all.filter((row) => row[field.name] !== null && row[field.name] !== undefined && !String(row[field.name]).includes(','));
      assert.ok(samples.length > 0, `${filter.name}: a record with a value to filter on`);
      const sample = samples[samples.length - 1]!;
      const value = sample[field.name];
      const key = `filter[${filter.name}]`;

      // A date filter's periods and zones: the test below.
      if (filter.kind === 'exact' || (filter.kind === 'date' && field.type === 'date')) {
        const rows = await listAll(ctx, `${key}=${encodeURIComponent(filterValue(field, value))}`);
        assert.ok(
          rows.some((row) => row.id === sample.id),
          `${key} finds the record`,
        );
        for (const row of rows) assert.ok(sameValue(field, row[field.name], value), `${key}: ${row[field.name]} = ${value}`);
      }
      // `filter[id]=1,2` means one thing everywhere: exact and list filters take comma lists.
      if (filter.kind === 'exact' || filter.kind === 'list') {
        const other = samples.find((row) => !sameValue(field, row[field.name], value)) ?? sample;
        const wanted = [value, other[field.name]];
        const rows = await listAll(ctx, `${key}=${encodeURIComponent(wanted.map((v) => filterValue(field, v)).join(','))}`);
        assert.ok(rows.some((row) => row.id === sample.id) && rows.some((row) => row.id === other.id), `${key} finds both records`);
        for (const row of rows)
          assert.ok(
            wanted.some((v) => sameValue(field, row[field.name], v)),
            `${key}: ${row[field.name]} in ${wanted}`,
          );
      }
      // A range: one number, both ends, either end open, against the values listed; one that ends below its start is a 422.
      if (filter.kind === 'range') {
        const number = (row: Record<string, any>) => Number(row[field.name]);
        const values = samples.map(number);
        const [low, at] = [Math.min(...values), Number(value)];
        const expectRange = async (query: string, keep: (n: number) => boolean) => {
          const rows = await listAll(ctx, `${key}=${encodeURIComponent(query)}`);
          assert.equal(
            rows.map((row) => row.id).sort((a, b) => a - b),
            samples
              .filter((row) => keep(number(row)))
              .map((row) => row.id)
              .sort((a, b) => a - b),
            `${key}=${query}`,
          );
        };
        await expectRange(String(at), (n) => n === at);
        await expectRange(`${low}..${at}`, (n) => n >= low && n <= at);
        await expectRange(`${at}..`, (n) => n >= at);
        await expectRange(`..${at}`, (n) => n <= at);
        if (low < at) {
          const reversed = await ctx.client.get(`${ctx.listPath}?${key}=${at}..${low}`, { token: ctx.token });
          assert.is(reversed.status, 422, `${key}=${at}..${low} ends below its start`);
        }
      }
      if (filter.kind === 'partial') {
        const text = String(value);
        // The API trims filter values, so the piece must not start or end with a space.
        const part = swapCase(text.slice(Math.floor(text.length / 3), Math.floor(text.length / 3) + 3).trim() || text);
        const rows = await listAll(ctx, `${key}=${encodeURIComponent(part)}`);
        assert.ok(
          rows.some((row) => row.id === sample.id),
          `${key}=${part} finds "${text}" whatever the case`,
        );
        for (const row of rows) assert.ok(String(row[field.name]).toLowerCase().includes(part.toLowerCase()), `${key}: "${row[field.name]}" contains "${part}"`);
        const wildcard = await listAll(ctx, `${key}=${encodeURIComponent('%_%')}`);
        for (const row of wildcard) assert.ok(String(row[field.name]).includes('%_%'), `${key}: % and _ match literally`);
      } else if (filter.kind === 'boolean') {
        for (const raw of ['true', 'false', '1', '0']) {
          const rows = await listAll(ctx, `${key}=${raw}`);
          for (const row of rows) assert.is(row[field.name], raw === 'true' || raw === '1', `${key}=${raw}`);
        }
      }
      await expectNoMatch(ctx, filter);
      await expectBadValue(ctx, filter);
      const empty = await ctx.client.get(`${ctx.listPath}?${key}=`, { token: ctx.token });
      assert.is(empty.body.meta.total, total, `${key}= (empty) is no filter`);
    }
  });
}

/**
 * Each date filter with a period of every unit (the keys of the grouped totals) and with ranges of
 * days, against the days the listed rows fall on as worked out here: a datetime's in a zone where
 * more of them fall on another day than in UTC (`tz`), and in UTC.
 */
export function dateFilterChecks(test: Test, context: () => ResourceContext) {
  test('date filters: a period or a range of them lists the records whose day (in tz) falls in it', async () => {
    const ctx = context();
    const filters = [...ctx.def.filters.values()].filter((filter) => filter.kind === 'date');
    if (filters.length === 0) return;
    // Past 100 rows the first 100, narrowed by filter[id].
    const first = await ctx.client.get(`${ctx.listPath}?per_page=100&sort=-id`, { token: ctx.token });
    assert.is(first.status, 200, first.text);
    const rows: Array<Record<string, any>> = first.body.data;
    const narrowed = first.body.meta.total > rows.length ? `&filter[id]=${rows.map((row) => row.id).join(',')}` : '';
    for (const filter of filters) {
      const field = filter.field!;
      const dated = rows.filter((row) => row[field.name] != null);
      assert.ok(dated.length > 0, `${filter.name}: a record with a value to filter on`);
      const moved = (zone: string) => dated.filter((row) => dayIn(row[field.name], zone) !== String(row[field.name]).slice(0, 10)).length;
      // 14 hours ahead and 11 behind: every hour of a UTC day is another day in one of them.
      const zone = [...ZONES, 'Pacific/Kiritimati', 'Pacific/Pago_Pago'].reduce((best, zone) => (moved(zone) > moved(best) ? zone : best));
      if (field.type === 'datetime') assert.ok(moved(zone) > 0, `${filter.name}: a record on another day in ${zone}`);
      const zones = field.type === 'datetime' ? ['UTC', zone] : ['UTC'];
      for (const timeZone of zones) {
        const dayOf = (row: Record<string, any>) => (field.type === 'date' ? String(row[field.name]).slice(0, 10) : dayIn(row[field.name], timeZone));
        const listed = async (value: string) => {
          const response = await ctx.client.get(`${ctx.listPath}?per_page=100&tz=${encodeURIComponent(timeZone)}&filter[${filter.name}]=${encodeURIComponent(value)}${narrowed}`, {
            token: ctx.token,
          });
          assert.is(response.status, 200, `filter[${filter.name}]=${value}: ${response.text}`);
          return (response.body.data as Array<Record<string, any>>).map((row) => row.id).sort((a, b) => a - b);
        };
        const expect = async (value: string, keep: (day: string) => boolean) => {
          const wanted = dated
            .filter((row) => keep(dayOf(row)))
            .map((row) => row.id)
            .sort((a, b) => a - b);
          assert.equal(await listed(value), wanted, `filter[${filter.name}]=${value} in ${timeZone}`);
        };
        const days = dated.map(dayOf).sort();
        // A record whose day in the zone is not its UTC day, where there is one.
        const sample = dayOf(dated.find((row) => dayOf(row) !== String(row[field.name]).slice(0, 10)) ?? dated[dated.length - 1]!);
        for (const unit of DATE_UNITS) {
          const key = bucket(sample, unit);
          await expect(key, (day) => bucket(day, unit) === key);
        }
        const [low, high] = [days[0]!, days[days.length - 1]!];
        await expect(`${low}..${high}`, () => true);
        await expect(`${sample}..`, (day) => day >= sample);
        await expect(`..${sample}`, (day) => day <= sample);
        await expect(`${bucket(low, 'month')}..${bucket(sample, 'week')}`, (day) => bucket(day, 'month') >= bucket(low, 'month') && bucket(day, 'week') <= bucket(sample, 'week'));
        await expect(`${nextDay(high)}..`, () => false);
      }
    }
  });
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

async function expectNoMatch(ctx: ResourceContext, filter: FilterDef) {
  const field = filter.field!;
  const value =
    field.type === 'boolean'
      ? undefined
      : field.type === 'date' || filter.kind === 'date'
        ? '1901-01-01'
        : ['integer', 'number', 'decimal'].includes(field.type)
          ? '99999999'
          : `no-such-value-${ctx.payload.tag}`;
  if (value === undefined) return;
  const response = await ctx.client.get(`${ctx.listPath}?filter[${filter.name}]=${value}`, { token: ctx.token });
  assert.is(response.status, 200);
  assert.is(response.body.meta.total, 0, `filter[${filter.name}]=${value} matches nothing`);
}

async function expectBadValue(ctx: ResourceContext, filter: FilterDef) {
  const field = filter.field!;
  const bad = field.type === 'integer' || field.type === 'boolean' || field.type === 'date' || filter.kind === 'date' || filter.kind === 'range';
  if (!bad || filter.kind === 'partial') return;
  const response = await ctx.client.get(`${ctx.listPath}?filter[${filter.name}]=not-valid`, { token: ctx.token });
  assert.is(response.status, 422, `filter[${filter.name}]=not-valid`);
  assert.ok(response.body.errors[`filter[${filter.name}]`], 'the error names the filter');
}

/** Every row of the list with this query (up to 100, which the suites stay under). */
async function listAll(ctx: ResourceContext, query: string): Promise<Array<Record<string, any>>> {
  const response = await ctx.client.get(`${ctx.listPath}?per_page=100&sort=-id${query ? `&${query}` : ''}`, { token: ctx.token });
  assert.is(response.status, 200, `${query}: ${response.text}`);
  return response.body.data;
}

function swapCase(text: string): string {
  return [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}
