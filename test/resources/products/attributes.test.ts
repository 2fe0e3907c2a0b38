// Product attributes and their options: a record created without `sort` goes last, a soft-deleted
// attribute comes back with its options, and a force-deleted one takes its options with it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const BASE = `${API}/products/attributes`;

for (const target of databaseTargets()) {
  const test = suite(`product attributes [${target.name}]`);
  const tag = Math.random().toString(36).slice(2, 8);

  async function createAttribute(body: Record<string, unknown> = {}) {
    const { client, token } = await sharedApp(target);
    const response = await client.post(BASE, { token, body: { name: `Material ${tag}`, type: 'select', ...body } });
    assert.is(response.status, 201, response.text);
    return response.body.data;
  }

  async function highestSort(table: string): Promise<number> {
    const { knex } = await sharedApp(target);
    return Number((await knex(table).max({ highest: 'sort' }).first())?.highest ?? 0);
  }

  test('an attribute created without sort goes last; a sort sent is kept, and can be changed', async () => {
    const { client, token } = await sharedApp(target);
    const highest = await highestSort('products_attributes');
    const last = await createAttribute();
    assert.is(last.sort, highest + 1);
    const next = await createAttribute({ sort: null });
    assert.is(next.sort, highest + 2, 'null counts as not sent');
    const placed = await createAttribute({ sort: 0 });
    assert.is(placed.sort, 0);
    const moved = await client.put(`${BASE}/${placed.id}`, { token, body: { sort: 5 } });
    assert.is(moved.body.data.sort, 5);
  });

  test('an option created without sort goes last; extra_price is a four-place decimal string', async () => {
    const { client, token } = await sharedApp(target);
    const attribute = await createAttribute();
    const highest = await highestSort('products_attribute_options');
    const options = `${BASE}/${attribute.id}/options`;
    const first = await client.post(options, { token, body: { name: 'Oak', extra_price: 9.99, color: '#8b5a2b' } });
    assert.is(first.status, 201, first.text);
    assert.is(first.body.message, 'Attribute option created successfully.');
    assert.is(first.body.data.sort, highest + 1);
    assert.is(first.body.data.extra_price, '9.9900');
    assert.is(first.body.data.attribute_id, attribute.id);
    const second = await client.post(options, { token, body: { name: 'Pine', attribute_id: 1 } });
    assert.is(second.body.data.sort, highest + 2);
    assert.is(second.body.data.attribute_id, attribute.id, 'the path decides the attribute');
    const negative = await client.post(options, { token, body: { name: 'Ash', extra_price: -1 } });
    assert.is(negative.status, 422);

    const listed = await client.get(`${BASE}/${attribute.id}?include=options`, { token });
    assert.equal(
      listed.body.data.options.map((o: any) => o.name),
      ['Oak', 'Pine'],
    );
  });

  test('an option is only reachable under its own attribute', async () => {
    const { client, token } = await sharedApp(target);
    const mine = await createAttribute();
    const other = await createAttribute();
    const option = await client.post(`${BASE}/${mine.id}/options`, { token, body: { name: 'Walnut' } });
    const elsewhere = `${BASE}/${other.id}/options/${option.body.data.id}`;
    assert.is((await client.get(elsewhere, { token })).status, 404);
    assert.is((await client.put(elsewhere, { token, body: { name: 'Stolen' } })).status, 404);
    assert.is((await client.delete(elsewhere, { token })).status, 404);
    assert.is((await client.get(`${BASE}/99999999/options`, { token })).status, 404);
  });

  test('a soft-deleted attribute is hidden with its options, and restored with them', async () => {
    const { client, token } = await sharedApp(target);
    const attribute = await createAttribute({ type: 'color' });
    await client.post(`${BASE}/${attribute.id}/options`, { token, body: { name: 'Red', color: '#ff0000' } });
    assert.equal((await client.delete(`${BASE}/${attribute.id}`, { token })).body, { message: 'Attribute deleted successfully.' });
    assert.is((await client.get(`${BASE}/${attribute.id}`, { token })).status, 404);
    assert.is((await client.get(`${BASE}/${attribute.id}/options`, { token })).status, 404, 'its options are out of reach');
    const only = await client.get(`${BASE}?filter[trashed]=only&filter[id]=${attribute.id}`, { token });
    assert.is(only.body.data.length, 1);
    assert.type(only.body.data[0].deleted_at, 'string');

    const restored = await client.post(`${BASE}/${attribute.id}/restore?include=options`, { token });
    assert.is(restored.status, 200, restored.text);
    assert.is(restored.body.message, 'Attribute restored successfully.');
    assert.is(restored.body.data.deleted_at, null);
    assert.equal(
      restored.body.data.options.map((o: any) => o.name),
      ['Red'],
    );
  });

  test('force delete removes the attribute and its options, trashed or not', async () => {
    const { client, token, knex } = await sharedApp(target);
    for (const trashFirst of [false, true]) {
      const attribute = await createAttribute();
      for (const name of ['Small', 'Large']) await client.post(`${BASE}/${attribute.id}/options`, { token, body: { name } });
      if (trashFirst) await client.delete(`${BASE}/${attribute.id}`, { token });
      const removed = await client.delete(`${BASE}/${attribute.id}/force`, { token });
      assert.is(removed.status, 200, removed.text);
      assert.equal(removed.body, { message: 'Attribute permanently deleted.' });
      assert.is(await knex('products_attributes').where('id', attribute.id).first(), undefined);
      assert.equal(await knex('products_attribute_options').where('attribute_id', attribute.id).select('id'), [], 'the options went with it');
      assert.is((await client.post(`${BASE}/${attribute.id}/restore`, { token })).status, 404);
    }
  });

  test('type is one of radio, select, color; the list filters by it', async () => {
    const { client, token } = await sharedApp(target);
    const bad = await client.post(BASE, { token, body: { name: `Bad ${tag}`, type: 'checkbox' } });
    assert.is(bad.status, 422);
    assert.ok(bad.body.errors.type);
    await createAttribute({ type: 'radio' });
    const radios = await client.get(`${BASE}?filter[type]=radio&per_page=100`, { token });
    assert.ok(radios.body.data.length > 0);
    for (const row of radios.body.data) assert.is(row.type, 'radio');
  });

  test.run();
}
