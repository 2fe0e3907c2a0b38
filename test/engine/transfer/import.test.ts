// POST <resource>/import (engine/transfer/import): a file's rows through the create's (or the
// update's) write path, one report; all or nothing by default, on_error=skip, dry_run; names for
// relations; bounded in bytes (413) and rows (422); a malformed file is a 400 naming the line.
import ExcelJS from 'exceljs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, startApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const CATEGORIES = `${API}/support/uom-categories`;
const CSV = { 'content-type': 'text/csv' };
const JSONL = { 'content-type': 'application/x-ndjson' };

for (const target of databaseTargets()) {
  const test = suite(`import [${target.name}]`);
  let app: TestApp;
  let token: string;
  let uoms: string;
  let category: number;

  test.before(async () => {
    app = await startApp(target, { env: { IMPORT_MAX_ROWS: '20', IMPORT_MAX_BYTES: '16384' } });
    token = await app.login();
    category = (await app.client.post(CATEGORIES, { token, body: { name: `Imported ${target.name}` } })).body.data.id;
    uoms = `${CATEGORIES}/${category}/uoms`;
  });
  test.after(() => app.close());

  const names = async () => (await app.knex('unit_of_measures').where('category_id', category).orderBy('id').pluck('name')) as string[];
  const post = (path: string, rawBody: string, headers = CSV, query: Record<string, string> = {}) => app.client.post(path, { token, rawBody, headers, query });

  test('a CSV of valid rows: 200, every row created as a create would, with its change in the feed', async () => {
    const csv = 'type,name,factor,rounding\nreference,kg,1,0.01\nsmaller,g,1000,0.01\n"bigger","t, metric",0.001,"0.1"\n';
    const response = await post(`${uoms}/import`, csv);
    assert.is(response.status, 200, response.text);
    assert.equal({ ...response.body, message: undefined }, { message: undefined, rows: 3, created: 3, updated: 0, rejected: [], dry_run: false });
    assert.equal(await names(), ['kg', 'g', 't, metric']);
    const g = await app.knex('unit_of_measures').where({ category_id: category, name: 'g' }).first();
    assert.is(Number(g.factor), 1000);
    assert.ok(g.creator_id, 'the creator is set as by a create');
    const feed = await app
      .knex('change_log')
      .where({ resource: 'support/uoms', kind: 'created' })
      .whereIn('record_id', await app.knex('unit_of_measures').where('category_id', category).pluck('id'));
    assert.is(feed.length, 3);
  });

  test('a bad row: 422 with its line and the errors a create gives; nothing written', async () => {
    const before = await names();
    const csv = 'type,name,factor,rounding\nsmaller,mg,1000000,0.01\nhuge,lb,heavy,0.01\n';
    const response = await post(`${uoms}/import`, csv);
    assert.is(response.status, 422, response.text);
    const create = await app.client.post(uoms, { token, body: { type: 'huge', name: 'lb', factor: 'heavy', rounding: 0.01, category_id: category } });
    assert.is(create.status, 422);
    assert.equal(response.body.rejected, [{ row: 3, errors: create.body.errors }]);
    assert.is(response.body.created, 0);
    assert.match(response.body.message, /1 row of the file was rejected/);
    assert.equal(await names(), before);
  });

  test('on_error=skip writes the valid rows and reports the others', async () => {
    const csv = 'type,name,factor,rounding\nsmaller,cg,100000,0.01\n,dg,10000,0.01\n';
    const response = await post(`${uoms}/import`, csv, CSV, { on_error: 'skip' });
    assert.is(response.status, 200, response.text);
    assert.is(response.body.created, 1);
    assert.equal(response.body.rejected, [{ row: 3, errors: { type: ['The type field is required.'] } }]);
    assert.ok((await names()).includes('cg'));
    assert.not.ok((await names()).includes('dg'));
  });

  test('dry_run=1 checks every row and writes nothing', async () => {
    const before = await names();
    const changes = await app.knex('change_log').count({ n: '*' }).first();
    const response = await post(
      `${uoms}/import`,
      '{"type":"smaller","name":"µg","factor":1e9,"rounding":0.01}\n{"type":"smaller","name":"ng","factor":"x","rounding":0.01}\n',
      JSONL,
      { dry_run: '1' },
    );
    assert.is(response.status, 200, response.text);
    assert.equal(
      { ...response.body, message: undefined },
      { message: undefined, rows: 2, created: 1, updated: 0, rejected: [{ row: 2, errors: { factor: ['The factor field must be a number.'] } }], dry_run: true },
    );
    assert.equal(await names(), before);
    assert.equal(await app.knex('change_log').count({ n: '*' }).first(), changes);
  });

  test('a row with an id updates that record, with the update permission and its change', async () => {
    const kg = await app.knex('unit_of_measures').where({ category_id: category, name: 'kg' }).first();
    const response = await post(`${uoms}/import`, `id,name\n${kg.id},kilogram\n`);
    assert.is(response.status, 200, response.text);
    assert.is(response.body.updated, 1);
    assert.is((await app.knex('unit_of_measures').where('id', kg.id).first()).name, 'kilogram');
    const change = await app.knex('change_log').where({ resource: 'support/uoms', record_id: kg.id, kind: 'updated' }).first();
    assert.ok(change, 'the update is in the change feed');
    const missing = await post(`${uoms}/import`, 'id,name\n999999,none\n');
    assert.is(missing.status, 422);
    assert.equal(Object.keys(missing.body.rejected[0].errors), ['id']);
  });

  test('a relation given by name (the target’s code or name), looked up once per file', async () => {
    const country = await app.knex('countries').orderBy('id').first();
    const csv = `name,country\nBank by code ${target.name},${country.code}\nBank nowhere ${target.name},ZZZZ\n`;
    const response = await post(`${API}/support/banks/import`, csv, CSV, { on_error: 'skip' });
    assert.is(response.status, 200, response.text);
    assert.is(response.body.created, 1);
    assert.equal(response.body.rejected[0].row, 3);
    assert.match(response.body.rejected[0].errors.country[0], /"ZZZZ" matches no Country record/);
    const bank = await app.knex('banks').where('name', `Bank by code ${target.name}`).first();
    assert.is(Number(bank.country_id), Number(country.id));
  });

  test('a malformed file: 400 naming the line', async () => {
    const unterminated = await post(`${uoms}/import`, 'type,name,factor,rounding\nsmaller,a,1,0.01\nsmaller,"b,1,0.01\n');
    assert.is(unterminated.status, 400);
    assert.match(unterminated.body.message, /line 3/);
    const columns = await post(`${uoms}/import`, 'type,name,factor,rounding\nsmaller,a,1\n');
    assert.is(columns.status, 400);
    assert.match(columns.body.message, /line 2 has 3 cells/);
    const json = await post(`${uoms}/import`, '{"name":"a"}\n{"name":\n', JSONL);
    assert.is(json.status, 400);
    assert.match(json.body.message, /line 2 is not valid JSON/);
  });

  test('bounded: more rows than IMPORT_MAX_ROWS is a 422, a body over IMPORT_MAX_BYTES a 413; other types 415', async () => {
    const many = `type,name,factor,rounding\n${Array.from({ length: 21 }, (_, i) => `smaller,u${i},${i + 1},0.01`).join('\n')}\n`;
    const rows = await post(`${uoms}/import`, many);
    assert.is(rows.status, 422, rows.text);
    assert.match(rows.body.message, /at most 20/);
    const big = await post(`${uoms}/import`, `type,name,factor,rounding\n${'smaller,x,1,0.01\n'.repeat(1000)}`);
    assert.is(big.status, 413);
    const json = await app.client.post(`${uoms}/import`, { token, body: { name: 'x' } });
    assert.is(json.status, 415);
  });

  test('an .xlsx workbook: its first sheet, cells read by type, rows numbered as the sheet', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('UOMs');
    sheet.addRows([
      ['type', 'name', 'factor', 'rounding'],
      ['smaller', 'xlsx-g', 1000, 0.01],
      ['smaller', 'xlsx-bad', 'many', 0.01],
    ]);
    const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
    const response = await app.app.inject({
      method: 'POST',
      url: `${uoms}/import?on_error=skip`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
      payload: buffer,
    });
    assert.is(response.statusCode, 200, response.body);
    const report = response.json();
    assert.is(report.created, 1);
    assert.equal(report.rejected, [{ row: 3, errors: { factor: ['The factor field must be a number.'] } }]);
    assert.ok((await names()).includes('xlsx-g'));
  });
  test.run();
}
