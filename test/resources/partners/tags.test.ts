// Partner and product tags: a name is unique, trashed tags included, and a duplicate is a 422
// naming the field (the original answers 500 for partner tags), on create and on update.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const TAKEN = { message: 'The name has already been taken.', errors: { name: ['The name has already been taken.'] } };

for (const target of databaseTargets()) {
  for (const path of ['/partners/tags', '/products/tags']) {
    const test = suite(`${path} unique names [${target.name}]`);
    const base = `${API}${path}`;
    const unique = () => `Tag ${Math.random().toString(36).slice(2, 10)}`;

    test('a duplicate name → 422 on create and on update, and nothing is written', async () => {
      const { client, token, knex } = await sharedApp(target);
      const first = await client.post(base, { token, body: { name: unique(), color: '#112233' } });
      assert.is(first.status, 201, first.text);
      assert.is(first.body.message, 'Tag created successfully.');
      const second = await client.post(base, { token, body: { name: unique() } });
      assert.is(second.status, 201, second.text);
      const table = path === '/partners/tags' ? 'partners_tags' : 'products_tags';
      const count = async () => Number((await knex(table).count({ n: '*' }).first())!.n);
      const before = await count();

      const duplicate = await client.post(base, { token, body: { name: first.body.data.name } });
      assert.is(duplicate.status, 422, duplicate.text);
      assert.equal(duplicate.body, TAKEN);
      assert.is(await count(), before);

      const renamed = await client.put(`${base}/${second.body.data.id}`, { token, body: { name: first.body.data.name } });
      assert.is(renamed.status, 422, renamed.text);
      assert.equal(renamed.body, TAKEN);
      const shown = await client.get(`${base}/${second.body.data.id}`, { token });
      assert.is(shown.body.data.name, second.body.data.name, 'unchanged');
    });

    test('a tag keeps its own name on update; a trashed tag still holds its name until force-deleted', async () => {
      const { client, token } = await sharedApp(target);
      const tag = await client.post(base, { token, body: { name: unique() } });
      const same = await client.put(`${base}/${tag.body.data.id}`, { token, body: { name: tag.body.data.name, color: '#abcdef' } });
      assert.is(same.status, 200, same.text);
      assert.is(same.body.data.color, '#abcdef');

      assert.is((await client.delete(`${base}/${tag.body.data.id}`, { token })).status, 200);
      const whileTrashed = await client.post(base, { token, body: { name: tag.body.data.name } });
      assert.is(whileTrashed.status, 422, 'a restore would otherwise create a duplicate');
      const restored = await client.post(`${base}/${tag.body.data.id}/restore`, { token });
      assert.is(restored.status, 200, restored.text);
      assert.is(restored.body.message, 'Tag restored successfully.');

      const forced = await client.delete(`${base}/${tag.body.data.id}/force`, { token });
      assert.equal(forced.body, { message: 'Tag permanently deleted.' });
      const again = await client.post(base, { token, body: { name: tag.body.data.name } });
      assert.is(again.status, 201, 'the name is free once the tag is gone');
    });

    test('color must be a hex colour of at most 7 characters', async () => {
      const { client, token } = await sharedApp(target);
      for (const color of ['red', '#12345678', '123456']) {
        const response = await client.post(base, { token, body: { name: unique(), color } });
        assert.is(response.status, 422, `${color}: ${response.text}`);
        assert.ok(response.body.errors.color, color);
      }
    });

    test.run();
  }
}
