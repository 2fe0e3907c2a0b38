// Grouped totals (GET <list path>/aggregate, issue 51 part 1), on both databases: groups by a
// field, a belongsTo relation and a datetime's calendar in a time zone; decimals summed exactly
// and averaged at their scale; the list's rows (its filters, trashed, parent); sort and pages
// over groups; null keys one group, last; what is refused (400 listing the allowed names, 422
// for bounds and bad values). Each suite makes its own records and reads only them (a fresh UOM
// category, a fresh project), so it holds in any order beside the others.
import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import { offsetRanges, zoneOffset } from '../../engine/calendar/zone-offsets.ts';
import { sharedApp, type TestApp } from '../helpers/app.ts';
import { asAdmin } from '../helpers/as-admin.ts';
import { databaseTargets } from '../helpers/targets.ts';

test('a zone’s offsets: Zurich changes twice in 2026, at 01:00 UTC; UTC never; Kolkata keeps +05:30', () => {
  const ranges = offsetRanges('Europe/Zurich', Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1));
  assert.equal(
    ranges.map((range) => [range.from === undefined ? undefined : new Date(range.from).toISOString(), range.offset]),
    [
      [undefined, 3600],
      ['2026-03-29T01:00:00.000Z', 7200],
      ['2026-10-25T01:00:00.000Z', 3600],
    ],
  );
  assert.equal(offsetRanges('UTC', Date.UTC(2000, 0, 1), Date.UTC(2030, 0, 1)), [{ offset: 0 }]);
  assert.is(zoneOffset('Asia/Kolkata', Date.UTC(2026, 5, 1)), 19800);
  assert.is(zoneOffset('America/St_Johns', Date.UTC(2026, 0, 1)), -12600);
});
test.run();

for (const target of databaseTargets()) {
  const suiteOf = suite(`grouped totals [${target.name}]`);
  let app: TestApp & { token: string };
  const ids: Record<string, number> = {};
  const { call, get, created } = asAdmin(() => app);
  const uoms = () => `/support/uom-categories/${ids.category}/uoms`;
  const tasks = () => `/projects/tasks/aggregate?filter[project_id]=${ids.project}`;

  suiteOf.before(async () => {
    try {
      app = await sharedApp(target);
      ids.category = (await created('/support/uom-categories', { name: `Grouped ${target.name} ${Date.now()}` })).id;
      const uom = (type: string, name: string, factor: number, rounding: number) => created(uoms(), { type, name, factor, rounding, category_id: ids.category });
      await uom('reference', 'Unit', 1, 0.01);
      await uom('bigger', 'Dozen', 12, 0.3333);
      await uom('bigger', 'Gross', 144, 0.3334);
      const trashed = await uom('smaller', 'Half', 0.5, 1);
      assert.is((await call('delete', `${uoms()}/${trashed.id}`)).status, 200);

      const stage = (await get('/projects/project-stages?sort=id')).data[0].id;
      ids.partner = (await created('/partners/partners', { account_type: 'company', name: `Grouped customer ${target.name}` })).id;
      ids.project = (await created('/projects/projects', { name: `Grouped ${target.name}`, visibility: 'internal', stage_id: stage, partner_id: ids.partner })).id;
      ids.stage = (await created('/projects/task-stages', { name: 'To do', project_id: ids.project })).id;
      const task = (title: string, state: string, deadline: string | null, hours: number, priority = false) =>
        created('/projects/tasks', { title, state, deadline, allocated_hours: hours, priority, stage_id: ids.stage, project_id: ids.project });
      // Zurich moves to summer time at 2026-03-29 01:00 UTC: 23:30 UTC the evening before is already the 29th there.
      await task('A', 'in_progress', '2026-03-28T22:30:00Z', 2);
      await task('B', 'in_progress', '2026-03-28T23:30:00Z', 3, true);
      await task('C', 'done', '2026-03-29T22:30:00Z', 5);
      await task('D', 'done', '2026-12-31T23:30:00Z', 1);
      await task('E', 'approved', null, 4);
    } catch (e) {
      console.error('BEFORE', e);
      throw e;
    }
  });

  suiteOf('without group_by: one group whose count is the list’s total; trashed rows only when asked', async () => {
    const list = await get(`${uoms()}?per_page=1`);
    const totals = await call('get', `${uoms()}/aggregate`);
    assert.is(totals.status, 200, totals.text);
    assert.equal(totals.body.data, [{ key: {}, measures: { count: list.meta.total } }]);
    assert.is(list.meta.total, 3);
    assert.equal(totals.body.meta, { group_by: [], measures: ['count'], tz: 'UTC', current_page: 1, per_page: 100, total_groups: 1 });
    const withTrashed = await get(`${uoms()}/aggregate?filter[trashed]=with`);
    assert.is(withTrashed.data[0].measures.count, 4);
  });

  suiteOf('a decimal is summed exactly and averaged at its scale; a number as a number; min, max, count_distinct', async () => {
    const body = await get(`${uoms()}/aggregate?group_by=type&measures=count,rounding:sum,rounding:avg,rounding:min,rounding:max,factor:sum,factor:avg,name:count_distinct`);
    assert.equal(body.data, [
      {
        key: { type: 'bigger' },
        // 0.3333 + 0.3334 = 0.6667; its average 0.33335 rounds half away from zero to 0.3334.
        measures: { count: 2, rounding: { sum: '0.6667', avg: '0.3334', min: '0.3333', max: '0.3334' }, factor: { sum: 156, avg: 78 }, name: { count_distinct: 2 } },
      },
      {
        key: { type: 'reference' },
        measures: { count: 1, rounding: { sum: '0.0100', avg: '0.0100', min: '0.0100', max: '0.0100' }, factor: { sum: 1, avg: 1 }, name: { count_distinct: 1 } },
      },
    ]);
    assert.is(body.meta.total_groups, 2);
  });

  suiteOf('having keeps the groups whose measures meet it, compared as they are shown; total_groups counts those', async () => {
    const kept = async (query: string) => {
      const body = await get(`${uoms()}/aggregate?group_by=type&measures=count,rounding:sum,rounding:avg,rounding:min,factor:avg&${query}`);
      assert.ok(body.data, `${query}: ${JSON.stringify(body)}`);
      assert.is(body.meta.total_groups, body.data.length, `${query}: total_groups counts the groups kept`);
      return body.data.map((group: any) => group.key.type);
    };
    assert.equal(await kept('having=count>1'), ['bigger']);
    assert.equal(await kept('having=count>=1,count<=1'), ['reference'], 'every condition holds');
    assert.equal(await kept('having=count!=2'), ['reference']);
    // 0.3333 + 0.3334: exactly 0.6667, never 0.66670000001 or 0.66669999999.
    assert.equal(await kept('having=rounding:sum>=0.6667'), ['bigger']);
    assert.equal(await kept('having=rounding:sum>0.6667'), []);
    assert.equal(await kept('having=rounding:sum=0.01'), ['reference']);
    // The average 0.33335 is shown as 0.3334 (half away from zero): it compares as shown.
    assert.equal(await kept('having=rounding:avg=0.3334'), ['bigger']);
    assert.equal(await kept('having=rounding:avg<0.3334'), ['reference']);
    assert.equal(await kept('having=rounding:min<=0.3333'), ['bigger', 'reference']);
    assert.equal(await kept('having=factor:avg>=78'), ['bigger']);
    assert.equal(await kept('having[]=count%3E1'), ['bigger'], 'the array form');
    const none = await get(`${uoms()}/aggregate?having=count>3`);
    assert.equal([none.data, none.meta.total_groups], [[], 0], 'without group_by: the one group, or none');
    const past = await get(`${uoms()}/aggregate?group_by=type,name&having=count>=1,count<2&per_page=2&page=3`);
    assert.equal([past.data, past.meta.total_groups], [[], 3], 'a page past the last counts the groups kept');
    const late = await get(`${tasks()}&group_by=state&measures=count,deadline:max&having=deadline:max>=2026-12-31T23:30:00Z`);
    assert.equal(
      late.data.map((group: any) => [group.key.state, group.measures.deadline.max]),
      [['done', '2026-12-31T23:30:00.000000Z']],
    );
    const zoned = await get(`${tasks()}&group_by=state&measures=deadline:max&having=deadline:max>=2027-01-01T00:30:00%2B01:00`);
    assert.equal(
      zoned.data.map((group: any) => group.key.state),
      ['done'],
      'a value with an offset is that instant',
    );
  });

  suiteOf('having: a measure not asked for is a 400 naming those asked; a value it cannot compare with a 422', async () => {
    const unknown = await call('get', `${uoms()}/aggregate?measures=count&having=rounding:sum>1`);
    assert.equal(
      [unknown.status, unknown.body],
      [400, { message: 'Requested having measure(s) `rounding:sum` are not allowed: a condition names a measure asked for in `measures`. Asked measures are `count`.' }],
    );
    for (const [having, message] of [
      ['count>many', '`count>many`: the value must be a number.'],
      ['count', '`count`: write a measure, an operator (>=, <=, !=, =, >, <) and a value (`count>5`).'],
    ]) {
      const response = await call('get', `${uoms()}/aggregate?measures=count&having=${having}`);
      assert.equal([response.status, response.body.errors], [422, { having: [message] }], having);
    }
    const places = await call('get', `${uoms()}/aggregate?measures=rounding:sum&having=rounding:sum>0.66667`);
    assert.equal(places.body.errors, { having: ['`rounding:sum>0.66667`: the value must be a number with at most 4 decimals, the field’s scale.'] });
    for (const value of ['922337203685477.5808', '-99999999999999999999']) {
      const beyond = await call('get', `${uoms()}/aggregate?measures=rounding:sum,rounding:avg&having=rounding:sum>${value},rounding:avg<${value}`);
      assert.equal([beyond.status, beyond.body.errors?.having?.length], [422, 2], `${value}: ${beyond.text}`);
    }
    const edge = await get(`${uoms()}/aggregate?measures=rounding:sum,rounding:avg&having=rounding:sum<922337203685477.5807,rounding:avg>-922337203685477.5807`);
    assert.is(edge.data.length, 1, 'a 64-bit total at its edge');
    const date = await call('get', `${tasks()}&measures=deadline:max&having=deadline:max>soon`);
    assert.is(date.status, 422);
  });

  suiteOf('sort by a measure, then the keys; pages over groups with links', async () => {
    const byCount = await get(`${uoms()}/aggregate?group_by=type&measures=count&sort=-count`);
    assert.equal(
      byCount.data.map((group: any) => group.key.type),
      ['bigger', 'reference'],
    );
    const byKey = await get(`${uoms()}/aggregate?group_by=type&sort=-type`);
    assert.equal(
      byKey.data.map((group: any) => group.key.type),
      ['reference', 'bigger'],
    );
    const second = await get(`${uoms()}/aggregate?group_by=type,name&per_page=2&page=2`);
    assert.equal(
      second.data.map((group: any) => group.key),
      [{ type: 'reference', name: 'Unit' }],
    );
    assert.is(second.meta.total_groups, 3);
    assert.ok(second.links.prev.endsWith('page=1'), second.links.prev);
    assert.is(second.links.next, null);
    const past = await get(`${uoms()}/aggregate?group_by=type,name&per_page=2&page=3`);
    assert.equal(past.data, []);
    assert.is(past.meta.total_groups, 3, 'a page past the last still counts the groups');
  });

  suiteOf('a datetime by day in a zone: exact across the change to summer time; null keys are one group, last', async () => {
    const utc = await get(`${tasks()}&group_by=deadline:day&tz=UTC`);
    assert.equal(
      utc.data.map((group: any) => [group.key['deadline:day'], group.measures.count]),
      [
        ['2026-03-28', 2],
        ['2026-03-29', 1],
        ['2026-12-31', 1],
        [null, 1],
      ],
    );
    const zurich = await get(`${tasks()}&group_by=deadline:day&tz=Europe/Zurich&measures=count,allocated_hours:sum`);
    assert.equal(
      zurich.data.map((group: any) => [group.key['deadline:day'], group.measures.count, group.measures.allocated_hours.sum]),
      [
        ['2026-03-28', 1, 2],
        ['2026-03-29', 1, 3],
        ['2026-03-30', 1, 5],
        ['2027-01-01', 1, 1],
        [null, 1, 4],
      ],
    );
    assert.is(zurich.meta.tz, 'Europe/Zurich');
    const nullsLastDescending = await get(`${tasks()}&group_by=deadline:year&sort=-deadline:year&tz=Pacific/Kiritimati`);
    assert.equal(
      nullsLastDescending.data.map((group: any) => group.key['deadline:year']),
      ['2027', '2026', null],
    );
  });

  suiteOf('calendar units: ISO week, month, quarter, year', async () => {
    const keys = async (unit: string) => (await get(`${tasks()}&group_by=deadline:${unit}&tz=UTC`)).data.map((group: any) => group.key[`deadline:${unit}`]);
    assert.equal(await keys('week'), ['2026-W13', '2026-W53', null]);
    assert.equal(await keys('month'), ['2026-03', '2026-12', null]);
    assert.equal(await keys('quarter'), ['2026-Q1', '2026-Q4', null]);
    assert.equal(await keys('year'), ['2026', null]);
    assert.equal((await get(`${tasks()}&group_by=deadline&tz=UTC`)).meta.group_by, ['deadline:month'], 'a date alone groups by month');
  });

  suiteOf('a relation groups by id and display name; booleans as booleans; three dimensions', async () => {
    const body = await get(`${tasks()}&group_by=partner,priority,state&sort=state`);
    assert.equal(
      body.data.map((group: any) => group.key),
      [
        { partner: { id: ids.partner, label: `Grouped customer ${target.name}` }, priority: false, state: 'approved' },
        { partner: { id: ids.partner, label: `Grouped customer ${target.name}` }, priority: false, state: 'done' },
        { partner: { id: ids.partner, label: `Grouped customer ${target.name}` }, priority: false, state: 'in_progress' },
        { partner: { id: ids.partner, label: `Grouped customer ${target.name}` }, priority: true, state: 'in_progress' },
      ],
    );
  });

  suiteOf('a text groups by its exact value on both databases, in code point order; a float total has no noise', async () => {
    const category = (await created('/support/uom-categories', { name: `Grouped texts ${target.name} ${Date.now()}` })).id;
    for (const [name, factor] of [
      ['cafe', 0.1],
      ['Café', 0.2],
      ['CAFE', 0.4],
    ] as const)
      await created(`/support/uom-categories/${category}/uoms`, { type: 'bigger', name, factor, rounding: 0.01, category_id: category });
    const body = await get(`/support/uom-categories/${category}/uoms/aggregate?group_by=name`);
    assert.equal(
      body.data.map((group: any) => [group.key.name, group.measures.count]),
      [
        ['CAFE', 1],
        ['Café', 1],
        ['cafe', 1],
      ],
    );
    const sum = await get(`/support/uom-categories/${category}/uoms/aggregate?measures=factor:sum&filter[name]=caf`);
    assert.is(sum.data[0].measures.factor.sum, 0.7, 'not 0.7000000000000001');
  });

  suiteOf('format=csv: every group as CSV, a relation as its id and label; a page when asked', async () => {
    const csv = await call('get', `${tasks()}&group_by=partner,state&measures=count,allocated_hours:sum&sort=state&format=csv`);
    assert.is(csv.status, 200, csv.text);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    const label = `Grouped customer ${target.name}`;
    assert.is(
      csv.text,
      `partner_id,partner,state,count,allocated_hours:sum\r\n${ids.partner},${label},approved,1,4\r\n${ids.partner},${label},done,2,6\r\n${ids.partner},${label},in_progress,2,5\r\n`,
    );
    const page = await call('get', `${tasks()}&group_by=state&format=csv&per_page=1&page=2`);
    assert.is(page.text, 'state,count\r\ndone,2\r\n');
    const refused = await call('get', `${tasks()}&format=pdf`);
    assert.is(refused.status, 400, refused.text);
  });

  suiteOf('a date grouped by a unit sorts by its name alone too', async () => {
    const body = await get(`${tasks()}&group_by=deadline:year&sort=-deadline&tz=UTC`);
    assert.equal(
      body.data.map((group: any) => group.key['deadline:year']),
      ['2026', null],
    );
  });

  suiteOf('unknown names are a 400 listing the allowed ones; bounds and bad values a 422; never a 500', async () => {
    const unknown = await call('get', `${uoms()}/aggregate?group_by=colour`);
    assert.is(unknown.status, 400, unknown.text);
    assert.is(
      unknown.body.message,
      'Requested group(s) `colour` are not allowed. Allowed group(s) are `type, name, category, creator, created_at, updated_at, deleted_at`. A date or datetime takes a unit: `:day`, `:week`, `:month`, `:quarter`, `:year`.',
    );
    const measure = await call('get', `${uoms()}/aggregate?measures=weight:sum`);
    assert.is(measure.status, 400, measure.text);
    assert.match(measure.body.message, /Allowed measure\(s\) are `count, type:count_distinct, name:count_distinct, factor:sum, /);
    const sort = await call('get', `${uoms()}/aggregate?group_by=type&sort=name`);
    assert.is(sort.status, 400, sort.text);
    const cases: Array<[string, string]> = [
      [`${tasks()}&group_by=state,priority,partner,deadline:day`, 'group_by'],
      [`${tasks()}&group_by=deadline:hour`, 'group_by'],
      [`${tasks()}&group_by=state:month`, 'group_by'],
      [`${tasks()}&measures=title:sum`, 'measures'],
      [`${tasks()}&measures=allocated_hours`, 'measures'],
      [`${tasks()}&measures=allocated_hours:median`, 'measures'],
      [`${tasks()}&per_page=1001`, 'per_page'],
      [`${tasks()}&tz=Mars/Base`, 'tz'],
      [`${tasks()}&filter[priority]=perhaps`, 'filter[priority]'],
    ];
    for (const [path, field] of cases) {
      const response = await call('get', path);
      assert.is(response.status, 422, `${path}: ${response.text}`);
      assert.ok(response.body.errors[field], `${path}: ${response.text}`);
    }
    const missingParent = await call('get', '/support/uom-categories/999999999/uoms/aggregate');
    assert.is(missingParent.status, 404, missingParent.text);
  });

  suiteOf.run();
}
