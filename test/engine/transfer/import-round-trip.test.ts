// An export imported again (engine/transfer/export → engine/routes/import-route.ts): a category's
// UOMs exported as CSV and imported under another category pass a dry run without an error, and
// imported for real export back the same rows, ids and what the engine stamps aside.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import { API, startApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const CATEGORIES = `${API}/support/uom-categories`;
/** Columns an import does not carry over: the record's own id, its parent, and what the engine stamps. */
const STAMPED = ['id', 'category_id', 'created_at', 'updated_at', 'deleted_at', 'creator_id'];

for (const target of databaseTargets()) {
  const test = suite(`import an export [${target.name}]`);
  let app: TestApp;
  let token: string;

  test.before(async () => {
    app = await startApp(target, { minimalSeed: true });
    token = await app.login();
  });
  test.after(() => app.close());

  const exported = async (path: string, format: string, fields = '') => {
    const response = await request(new URL(`${path}/export?format=${format}${fields && `&fields=${fields}`}`, app.client.baseUrl), {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.is(response.statusCode, 200);
    return Buffer.from(await response.body.arrayBuffer()).toString('utf8');
  };
  const withoutStamps = (jsonl: string) =>
    jsonl
      .trim()
      .split('\n')
      .map((line) => Object.fromEntries(Object.entries(JSON.parse(line)).filter(([key]) => !STAMPED.includes(key))));

  test('CSV out, CSV in under another category: the dry run finds no error, the import gives the same export back', async () => {
    const from = (await app.client.post(CATEGORIES, { token, body: { name: 'Exported' } })).body.data.id;
    const to = (await app.client.post(CATEGORIES, { token, body: { name: 'Imported' } })).body.data.id;
    const source = `${CATEGORIES}/${from}/uoms`;
    const copy = `${CATEGORIES}/${to}/uoms`;
    const units = [
      { type: 'reference', name: 'kg', factor: 1, rounding: 0.01 },
      { type: 'smaller', name: 'g, "gram"', factor: 1000, rounding: 0.0001 },
      { type: 'bigger', name: '-t', factor: 0.001, rounding: 1 },
    ];
    for (const unit of units) assert.is((await app.client.post(source, { token, body: { ...unit, category_id: from } })).status, 201);
    // Ids aside: a row with an `id` updates that record, so the copy leaves the column out.
    const columns = ['type', 'name', 'factor', 'rounding'].join(',');
    const csv = await exported(source, 'csv', columns);
    const send = (query: Record<string, string>) => app.client.post(`${copy}/import`, { token, rawBody: csv, headers: { 'content-type': 'text/csv' }, query });

    const dry = await send({ dry_run: '1' });
    assert.is(dry.status, 200, dry.text);
    assert.equal(dry.body.rejected, []);
    assert.is(dry.body.created, 3);
    const real = await send({});
    assert.is(real.status, 200, real.text);
    assert.is(real.body.created, 3);
    assert.equal(withoutStamps(await exported(copy, 'jsonl')), withoutStamps(await exported(source, 'jsonl')));
  });

  test.run();
}
