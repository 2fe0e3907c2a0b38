// Values a definition's rules let through but its column cannot store are 422s naming the field,
// never database errors: the bodies found answering 500 (issue "Reliability in production"),
// and the first value beyond each integer and decimal column of every resource.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { missingColumns, readSchemaBounds } from '../../engine/index.ts';
import { loadResources } from '../../src/app/build-app.ts';
import { API, sharedApp, type TestApp } from '../helpers/app.ts';
import { databaseTargets } from '../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`column bounds [${target.name}]`);
  let app: TestApp & { token: string };
  const send = (method: string, path: string, body: unknown) => app.client.send(method, `${API}${path}`, { token: app.token, body });
  const first = async (table: string, where: Record<string, unknown> = {}) => Number((await app.knex(table).where(where).orderBy('id').first('id')).id);

  test.before(async () => {
    app = await sharedApp(target);
  });

  test('bodies that used to reach the database answer 422 naming the field, and change nothing', async () => {
    const dropship = await send('POST', '/inventories/dropships', {});
    const transfer = await send('POST', '/inventories/internal-transfers', {});
    const priceList = await send('POST', '/sales/price-lists', { name: `Bounds ${target.name}`, currency_id: 1 });
    assert.is(priceList.status, 201, priceList.text);
    const cases: Array<[string, string, unknown, string]> = [
      ['PUT', `/sales/price-lists/${priceList.body.data.id}`, { active: null }, 'active'],
      ['POST', '/sales/teams', { name: 'x', is_active: null }, 'is_active'],
      // biome-ignore lint/correctness/noPrecisionLoss: 2^64, the body the issue found answering 500
      ['PUT', `/sales/price-lists/${priceList.body.data.id}`, { sort: 18446744073709551616 }, 'sort'],
      ['POST', '/sales/price-lists', { name: `Too big ${target.name}`, currency_id: 1, sort: 2147483648 }, 'sort'],
      ['POST', '/support/banks', { name: 'x'.repeat(256) }, 'name'],
    ];
    for (const [method, path, body, field] of cases) {
      const before = await app.knex('sales_price_lists').where('id', priceList.body.data.id).first();
      const response = await send(method, path, body);
      assert.is(response.status, 422, `${method} ${path} ${JSON.stringify(body)}: ${response.text}`);
      assert.equal(Object.keys(response.body.errors), [field]);
      assert.equal(await app.knex('sales_price_lists').where('id', priceList.body.data.id).first(), before);
    }
    // A blank for a not-null column whose definition says what a null means (`nullMeans: unsent`):
    // not sent, the stored value kept; it never reaches the column.
    const blank = await send('PATCH', `/inventories/dropships/${dropship.body.data.id}`, { move_type: '   ' });
    assert.equal([blank.status, blank.body.data?.move_type], [200, dropship.body.data.move_type], blank.text);
    const empty = await send('PUT', `/inventories/internal-transfers/${transfer.body.data.id}`, { source_location_id: '' });
    assert.equal([empty.status, empty.body.data?.source_location_id], [200, transfer.body.data.source_location_id], empty.text);
    const rate = await send('POST', `/support/currencies/${await first('currencies')}/rates`, { name: '2026-11-23', rate: 1e308 });
    assert.is(rate.status, 422, 'beyond what the decimal column (or, on SQLite, a decimal field) stores');
    assert.equal(Object.keys(rate.body.errors), ['rate']);
  });

  test('every integer and decimal field of every resource refuses the first value beyond its column', async () => {
    const registry = loadResources();
    const bounds = await readSchemaBounds(app.knex, registry);
    let checked = 0;
    for (const def of registry.all()) {
      if (!def.operations.has('create') || def.parent) continue;
      for (const field of def.fields.values()) {
        if (!field.writable || !['integer', 'number', 'decimal'].includes(field.type) || field.references) continue;
        const column = bounds.get(def.table)?.get(field.name);
        if (column?.maximum === undefined || (field.maximum !== undefined && field.maximum < column.maximum)) continue;
        const beyond = field.type === 'integer' ? column.maximum + 1 : column.maximum * 1.0001 + 1;
        const response = await send('POST', def.path, { [field.name]: beyond });
        assert.is(response.status, 422, `${def.name}.${field.name} = ${beyond}`);
        assert.ok(response.body.errors[field.name], `${def.name}.${field.name} is named: ${response.text}`);
        checked++;
      }
    }
    assert.ok(checked > 5, `${checked} fields checked`);
  });

  test('a number without a maximum keeps to 15 integer digits, so that its grouped totals stay finite', async () => {
    const category = await send('POST', '/support/uom-categories', { name: `Large factors ${target.name} ${Date.now()}` });
    const uoms = `/support/uom-categories/${category.body.data.id}/uoms`;
    const uom = (name: string, factor: number) => send('POST', uoms, { name, type: 'bigger', factor, rounding: 0.01, category_id: category.body.data.id });
    const huge = await uom('Huge', 1e308);
    assert.equal([huge.status, Object.keys(huge.body.errors ?? {})], [422, ['factor']], huge.text);
    assert.is((await app.knex('unit_of_measures').where('category_id', category.body.data.id).count({ n: '*' }))[0]!.n, 0, 'nothing written');
    for (const name of ['Largest', 'Largest too']) assert.is((await uom(name, 999999999999999)).status, 201);
    // Two values of 1e308 summed to 0 on MariaDB and to null (infinity) on SQLite; a float total is shown to 15 significant digits.
    const totals = await app.client.get(`${API}${uoms}/aggregate?measures=factor:sum,factor:avg`, { token: app.token });
    assert.equal(totals.body.data, [{ key: {}, measures: { factor: { sum: 2000000000000000, avg: 999999999999999 } } }]);
  });

  test('every stored field of every definition has its column in the migrated schema', async () => {
    const registry = loadResources();
    assert.equal(missingColumns(registry, await readSchemaBounds(app.knex, registry)), []);
  });

  test('appending to the sort order after the highest storable sort still works', async () => {
    const top = await send('POST', '/sales/price-lists', { name: `Top ${target.name}`, currency_id: 1, sort: 2147483647 });
    assert.is(top.status, 201, top.text);
    const next = await send('POST', '/sales/price-lists', { name: `After top ${target.name}`, currency_id: 1 });
    assert.is(next.status, 201, next.text);
    assert.is(next.body.data.sort, 2147483647);
  });

  test.run();
}
