// GET <list path>/export: every matching row as CSV, JSON Lines or XLSX, with the list's filters,
// sort, permission and parent; display names of belongsTo relations; formula cells neutralised.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import ExcelJS from 'exceljs';
import { request } from 'undici';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { userWith } from '../../helpers/access.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const BANKS = `${API}/support/banks`;

/** The raw answer: status, headers and bytes (the test client reads JSON). */
async function fetchRaw(app: TestApp, path: string, token: string) {
  const response = await request(new URL(path, app.client.baseUrl), { headers: { authorization: `Bearer ${token}` } });
  return { status: response.statusCode, headers: response.headers, body: Buffer.from(await response.body.arrayBuffer()) };
}

/** CSV text → records of fields (RFC 4180), for checking what a reader gets back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (quoted && char === '"' && text[i + 1] === '"') {
      field += '"';
      i += 2;
      continue;
    }
    if (quoted && char === '"') quoted = false;
    else if (quoted) field += char;
    else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += char;
    i++;
  }
  return rows;
}

for (const target of databaseTargets()) {
  const test = suite(`export [${target.name}]`);
  let app: TestApp;
  let token: string;
  const tag = Math.random().toString(36).slice(2, 8);

  test.before(async () => {
    app = await sharedApp(target);
    token = await app.login();
    for (const name of [`Export ${tag} Alpha, "quoted"`, `=HYPERLINK("http://evil.example","Export ${tag}")`, `Export ${tag} Ünïcødé\nsecond line`]) {
      const response = await app.client.post(BANKS, { token, body: { name, city: `City ${tag}`, phone: '-5' } });
      assert.is(response.status, 201, response.text);
    }
  });

  test('CSV: a header of the fields, every matching row as the list shows it, RFC 4180 quoting, formulas neutralised', async () => {
    const response = await fetchRaw(app, `${BANKS}/export?filter[city]=${tag}&sort=name`, token);
    assert.is(response.status, 200);
    assert.is(response.headers['content-type'], 'text/csv; charset=utf-8');
    assert.is(response.headers['content-disposition'], 'attachment; filename="support-banks.csv"');
    const text = response.body.toString('utf8');
    assert.ok(text.startsWith('\uFEFF'), 'a byte order mark: spreadsheets read UTF-8');
    const [header, ...rows] = parseCsv(text.slice(1));
    const list = await app.client.get(`${BANKS}?filter[city]=${tag}&sort=name&per_page=100`, { token });
    assert.equal(header, Object.keys(list.body.data[0]));
    assert.is(rows.length, 3);
    const expected = list.body.data.map((record: Record<string, unknown>) =>
      Object.values(record).map((value) => (value === null ? '' : String(value).startsWith('=') ? `'${value}` : String(value))),
    );
    assert.equal(rows, expected);
    assert.ok(
      rows.some((row) => row.includes(`'=HYPERLINK("http://evil.example","Export ${tag}")`)),
      'the formula is text',
    );
    assert.ok(
      rows.every((row) => row[header!.indexOf('phone')] === '-5'),
      'a number is left as it is',
    );
  });

  test('JSON Lines: the records as the API writes them; fields= chooses and orders the columns', async () => {
    const response = await fetchRaw(app, `${BANKS}/export?format=jsonl&filter[city]=${tag}&sort=-name`, token);
    assert.is(response.status, 200);
    assert.is(response.headers['content-type'], 'application/x-ndjson; charset=utf-8');
    const lines = response.body
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const list = await app.client.get(`${BANKS}?filter[city]=${tag}&sort=-name&per_page=100`, { token });
    assert.equal(lines, list.body.data);
    const some = await fetchRaw(app, `${BANKS}/export?format=jsonl&filter[city]=${tag}&fields=name,id`, token);
    const first = JSON.parse(some.body.toString('utf8').split('\n')[0]!);
    assert.equal(Object.keys(first), ['name', 'id']);
  });

  test('a belongsTo relation by its display name beside its id (UOMs and their category)', async () => {
    const category = (await app.knex('unit_of_measure_categories').orderBy('id').first())!;
    const path = `${API}/support/uom-categories/${category.id}/uoms/export?format=jsonl&fields=id,name,category_id,category`;
    const response = await fetchRaw(app, path, token);
    assert.is(response.status, 200);
    const lines = response.body
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const stored = await app.knex('unit_of_measures').where({ category_id: category.id }).whereNull('deleted_at').orderBy('id');
    assert.ok(stored.length > 0);
    assert.equal(
      lines,
      stored.map((uom) => ({ id: Number(uom.id), name: uom.name, category_id: Number(category.id), category: category.name })),
    );
  });

  test('XLSX: a workbook that opens, with the same rows', async () => {
    const response = await fetchRaw(app, `${BANKS}/export?format=xlsx&filter[city]=${tag}&sort=name&fields=id,name,phone`, token);
    assert.is(response.status, 200);
    assert.is(response.headers['content-type'], 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.body as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const values = sheet
      .getSheetValues()
      .filter(Boolean)
      .map((row) => (row as unknown[]).slice(1));
    const list = await app.client.get(`${BANKS}?filter[city]=${tag}&sort=name&per_page=100`, { token });
    assert.equal(values[0], ['id', 'name', 'phone']);
    assert.equal(
      values.slice(1),
      list.body.data.map((bank: any) => [bank.id, bank.name.startsWith('=') ? `'${bank.name}` : bank.name, '-5']),
    );
  });

  test('XLSX: a text longer than a cell holds (32,767 characters) is a note saying so, not a workbook to repair; CSV keeps it whole', async () => {
    const stage = await app.client.post(`${API}/projects/project-stages`, { token, body: { name: `Cells ${tag}` } });
    assert.is(stage.status, 201, stage.text);
    const long = 'x'.repeat(40_000);
    const ids: number[] = [];
    for (const [name, description] of [
      [`Long ${tag}`, long],
      [`Edge ${tag}`, 'y'.repeat(32_767)],
    ]) {
      const project = await app.client.post(`${API}/projects/projects`, { token, body: { name, description, visibility: 'internal', stage_id: stage.body.data.id } });
      assert.is(project.status, 201, project.text);
      ids.push(project.body.data.id);
    }
    const query = `filter[id]=${ids.join(',')}&sort=id&fields=id,description`;
    const response = await fetchRaw(app, `${API}/projects/projects/export?format=xlsx&${query}`, token);
    assert.is(response.status, 200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.body as unknown as ArrayBuffer);
    const rows = workbook.worksheets[0]!.getSheetValues().filter(Boolean) as unknown[][];
    assert.equal(rows[1]!.slice(1), [ids[0], 'This value has 40,000 characters, more than a spreadsheet cell holds (32,767): export as CSV or JSON lines to have it.']);
    assert.equal(rows[2]!.slice(1), [ids[1], 'y'.repeat(32_767)]);
    const csv = parseCsv((await fetchRaw(app, `${API}/projects/projects/export?format=csv&${query}`, token)).body.toString('utf8').replace(/^\uFEFF/, ''));
    assert.is(csv[1]![1], long);
  });

  test('a nested resource across every parent: GET /support/uoms/export, each row with its category_id', async () => {
    const categories = [];
    for (const name of [`Every ${tag} A`, `Every ${tag} B`]) {
      const category = (await app.client.post(`${API}/support/uom-categories`, { token, body: { name } })).body.data;
      const uom = await app.client.post(`${API}/support/uom-categories/${category.id}/uoms`, {
        token,
        body: { type: 'reference', name: `unit ${name}`, factor: 1, rounding: 0.01, category_id: category.id },
      });
      assert.is(uom.status, 201, uom.text);
      categories.push(category);
    }
    const response = await fetchRaw(app, `${API}/support/uoms/export?format=jsonl&fields=name,category_id,category&filter[name]=${encodeURIComponent(`Every ${tag}`)}`, token);
    assert.is(response.status, 200, response.body.toString('utf8'));
    const lines = response.body
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(
      lines,
      categories.map((category) => ({ name: `unit ${category.name}`, category_id: category.id, category: category.name })),
    );
    // Without a filter: every live UOM, whatever its category.
    const all = await fetchRaw(app, `${API}/support/uoms/export?format=csv&fields=id`, token);
    const stored = await app.knex('unit_of_measures').whereNull('deleted_at').count({ n: '*' }).first();
    assert.is(all.body.toString('utf8').trimEnd().split('\r\n').length - 1, Number(stored!.n));
    const { token: outsider } = await userWith(app, { only: ['view_any_support_bank'] });
    assert.is((await app.client.get(`${API}/support/uoms/export`, { token: outsider })).status, 403);
    assert.is((await app.client.get(`${API}/support/uoms/export`)).status, 401);
  });

  test('the list permission: 403 without it; a missing parent is a 404', async () => {
    const { token: outsider } = await userWith(app, { only: ['view_any_support_bank'] });
    const denied = await app.client.get(`${API}/support/uom-categories/1/uoms/export`, { token: outsider });
    assert.is(denied.status, 403, denied.text);
    const unauthenticated = await app.client.get(`${BANKS}/export`);
    assert.is(unauthenticated.status, 401);
    const missing = await app.client.get(`${API}/support/uom-categories/999999/uoms/export`, { token });
    assert.is(missing.status, 404);
  });

  test('a bad format, field, filter or sort is a 400 or 422 before any row is written', async () => {
    const format = await app.client.get(`${BANKS}/export?format=pdf`, { token });
    assert.is(format.status, 400);
    assert.equal(format.body, { message: 'Requested format `pdf` is not allowed. Allowed format(s) are `csv, jsonl, xlsx`.' });
    const field = await app.client.get(`${BANKS}/export?fields=name,secret`, { token });
    assert.is(field.status, 400);
    assert.match(field.body.message, /^Requested field\(s\) `secret` are not allowed\. Allowed field\(s\) are `id, name, /);
    const filter = await app.client.get(`${BANKS}/export?filter[nope]=1`, { token });
    assert.is(filter.status, 400);
    const sort = await app.client.get(`${BANKS}/export?sort=nope`, { token });
    assert.is(sort.status, 400);
    const value = await app.client.get(`${BANKS}/export?filter[country_id]=abc`, { token });
    assert.is(value.status, 422);
    assert.ok(value.body.errors['filter[country_id]']);
  });

  test('page and per_page are ignored: every row, past the largest page', async () => {
    const response = await fetchRaw(app, `${BANKS}/export?format=jsonl&per_page=1&page=2&fields=id`, token);
    assert.is(response.status, 200);
    const ids = response.body
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line).id);
    const stored = await app.knex('banks').whereNull('deleted_at').orderBy('id').pluck('id');
    assert.equal(ids, stored.map(Number));
  });

  test.run();
}
