// Inventory tags: names are unique counting trashed tags, a new tag goes last in the sort order
// whatever the body says, and a force delete answers the original's message.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const TAGS = `${API}/inventories/tags`;

for (const target of databaseTargets()) {
  const test = suite(`inventory tags [${target.name}]`);

  test('a name is taken while a tag has it, trashed or not (422), and free again once it is gone for good', async () => {
    const { client, token } = await sharedApp(target);
    const first = await client.post(TAGS, { token, body: { name: 'Fragile goods', color: '#ff0000' } });
    assert.is(first.status, 201, first.text);
    const taken = { message: 'The name has already been taken.', errors: { name: ['The name has already been taken.'] } };

    const duplicate = await client.post(TAGS, { token, body: { name: 'Fragile goods' } });
    assert.is(duplicate.status, 422);
    assert.equal(duplicate.body, taken);

    assert.is((await client.delete(`${TAGS}/${first.body.data.id}`, { token })).status, 200);
    const whileTrashed = await client.post(TAGS, { token, body: { name: 'Fragile goods' } });
    assert.is(whileTrashed.status, 422, 'a trashed tag keeps its name');
    assert.equal(whileTrashed.body, taken);

    const other = await client.post(TAGS, { token, body: { name: 'Heavy goods' } });
    const renamed = await client.put(`${TAGS}/${other.body.data.id}`, { token, body: { name: 'Fragile goods' } });
    assert.is(renamed.status, 422, 'nor can another tag be renamed to it');
    const same = await client.put(`${TAGS}/${other.body.data.id}`, { token, body: { name: 'Heavy goods', color: 'grey' } });
    assert.is(same.status, 200, 'a tag keeps its own name on update');

    const restored = await client.post(`${TAGS}/${first.body.data.id}/restore`, { token });
    assert.is(restored.status, 200);
    assert.is(restored.body.data.name, 'Fragile goods');
    assert.is(restored.body.message, 'Tag restored successfully.');

    const removed = await client.delete(`${TAGS}/${first.body.data.id}/force`, { token });
    assert.is(removed.status, 200);
    assert.equal(removed.body, { message: 'Tag permanently deleted successfully.' });
    const again = await client.post(TAGS, { token, body: { name: 'Fragile goods' } });
    assert.is(again.status, 201, again.text);
  });

  test('a new tag goes last in the sort order; a sort in the body is ignored', async () => {
    const { client, token, knex } = await sharedApp(target);
    const a = await client.post(TAGS, { token, body: { name: 'Sort check A' } });
    const b = await client.post(TAGS, { token, body: { name: 'Sort check B', sort: 1 } });
    assert.is(b.body.data.sort, a.body.data.sort + 1);
    const highest = await knex('inventories_tags').max({ sort: 'sort' }).first();
    assert.is(Number(highest!.sort), b.body.data.sort, 'the highest sort');
    const sorted = await client.get(`${TAGS}?sort=-sort&per_page=1`, { token });
    assert.is(sorted.body.data[0].id, b.body.data.id);
  });

  test('a deleted tag is hidden, found again with filter[trashed], and restored', async () => {
    const { client, token } = await sharedApp(target);
    const tag = await client.post(TAGS, { token, body: { name: 'Short-lived' } });
    await client.delete(`${TAGS}/${tag.body.data.id}`, { token });
    const listed = await client.get(`${TAGS}?filter[name]=short-lived`, { token });
    assert.equal(listed.body.data, []);
    assert.is((await client.get(`${TAGS}/${tag.body.data.id}`, { token })).status, 404);
    const trashed = await client.get(`${TAGS}?filter[trashed]=only&filter[name]=short-lived`, { token });
    assert.equal(
      trashed.body.data.map((row: any) => row.id),
      [tag.body.data.id],
    );
    assert.is((await client.post(`${TAGS}/${tag.body.data.id}/restore`, { token })).status, 200);
    assert.equal(
      (await client.get(`${TAGS}?filter[name]=short-lived`, { token })).body.data.map((row: any) => row.id),
      [tag.body.data.id],
    );
  });

  test.run();
}
