// A list's count stops LIST_COUNT_AHEAD rows past the requested page (engine/routes/run-list.ts):
// below that the total is exact and the envelope is the contract's; at the bound the total is a
// lower bound, meta says so with total_exact: false, and paging on moves the bound along.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, startApp, type TestApp } from '../helpers/app.ts';
import { databaseTargets } from '../helpers/targets.ts';

const CATEGORIES = `${API}/support/uom-categories`;

for (const target of databaseTargets()) {
  const test = suite(`bounded list count [${target.name}]`);
  let app: TestApp;
  let token: string;
  let uoms: string;

  test.before(async () => {
    app = await startApp(target, { minimalSeed: true, env: { LIST_COUNT_AHEAD: '5' } });
    token = (await app.client.post(`${API}/login`, { body: { email: 'admin@example.com', password: 'admin-password-1' } })).body.token;
    const category = (await app.client.post(CATEGORIES, { token, body: { name: `Counted ${target.name}` } })).body.data.id;
    uoms = `${CATEGORIES}/${category}/uoms`;
    const now = '2026-01-01 00:00:00';
    await app.knex('unit_of_measures').insert(
      Array.from({ length: 30 }, (_, i) => ({
        type: 'bigger',
        name: `${i % 2 ? 'odd' : 'even'} ${i + 1}`,
        factor: i + 1,
        rounding: 0.01,
        category_id: category,
        created_at: now,
        updated_at: now,
      })),
    );
  });

  test.after(() => app.close());

  const page = async (query: string) => {
    const response = await app.client.get(`${uoms}?${query}`, { token });
    assert.is(response.status, 200, response.text);
    return response.body;
  };

  test('past the bound, the total is a lower bound that says so, and the pages it names exist', async () => {
    const first = await page('per_page=5&sort=id');
    assert.is(first.data.length, 5);
    assert.is(first.meta.total, 10, 'the page and 5 rows ahead');
    assert.is(first.meta.total_exact, false);
    assert.is(first.meta.last_page, 2);
    assert.match(first.links.next, /page=2/);

    const second = await page('per_page=5&sort=id&page=2');
    assert.is(second.meta.total, 15, 'the bound moves with the page');
    assert.is(second.meta.last_page, 3);
    assert.is(second.meta.from, 6);
    assert.equal(
      second.data.map((row: { factor: number }) => row.factor),
      [6, 7, 8, 9, 10],
    );
  });

  test('below the bound the total is exact and the envelope is the contract’s', async () => {
    const last = await page('per_page=5&sort=id&page=6');
    assert.is(last.meta.total, 30);
    assert.is(last.meta.last_page, 6);
    assert.not.ok('total_exact' in last.meta, 'no extra key when exact');
    assert.is(last.links.next, null);

    const filtered = await page('per_page=15&filter[name]=odd');
    assert.is(filtered.meta.total, 15, 'fewer rows than the page and the bound');
    assert.not.ok('total_exact' in filtered.meta);
  });

  test.run();
}
