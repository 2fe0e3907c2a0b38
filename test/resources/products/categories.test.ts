// Product categories form a tree: full_name ("All / Saleable / Office Furniture") and parent_path
// ("/1/6/") follow the names and parents, down to every subcategory; a category cannot become its
// own descendant, and one with subcategories cannot be deleted.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const BASE = `${API}/products/categories`;

for (const target of databaseTargets()) {
  const test = suite(`product categories [${target.name}]`);
  const tag = Math.random().toString(36).slice(2, 8);

  async function create(name: string, parent_id?: number) {
    const { client, token } = await sharedApp(target);
    const response = await client.post(BASE, { token, body: { name: `${name} ${tag}`, parent_id } });
    assert.is(response.status, 201, response.text);
    return response.body.data;
  }

  test('the seeded tree: ids 1–10 with their full names and parent paths', async () => {
    const { knex } = await sharedApp(target);
    const rows = await knex('products_categories').whereBetween('id', [1, 10]).orderBy('id').select('id', 'name', 'full_name', 'parent_path', 'parent_id');
    assert.equal(
      rows.map((r) => [Number(r.id), r.full_name, r.parent_path, r.parent_id === null ? null : Number(r.parent_id)]),
      [
        [1, 'All', '/', null],
        [2, 'All / Consumable', '/1/', 1],
        [3, 'All / Expenses', '/1/', 1],
        [4, 'All / Home Construction', '/1/', 1],
        [5, 'All / Internal', '/1/', 1],
        [6, 'All / Saleable', '/1/', 1],
        [7, 'All / Saleable / Office Furniture', '/1/6/', 6],
        [8, 'All / Saleable / Outdoor furniture', '/1/6/', 6],
        [9, 'All / Saleable / Services', '/1/6/', 6],
        [10, 'All / Saleable / Services / Saleable', '/1/6/9/', 9],
      ],
    );
  });

  test('create: full_name and parent_path come from the parent; a root has "/"', async () => {
    const root = await create('Root');
    assert.is(root.full_name, `Root ${tag}`);
    assert.is(root.parent_path, '/');
    assert.is(root.parent_id, null);
    const child = await create('Child', root.id);
    assert.is(child.full_name, `Root ${tag} / Child ${tag}`);
    assert.is(child.parent_path, `/${root.id}/`);
    const under = await create('Chairs', 7);
    assert.is(under.full_name, `All / Saleable / Office Furniture / Chairs ${tag}`);
    assert.is(under.parent_path, '/1/6/7/');
  });

  test('full_name and parent_path are read-only', async () => {
    const { client, token } = await sharedApp(target);
    const category = await create('Fixed');
    const response = await client.put(`${BASE}/${category.id}`, { token, body: { full_name: 'Hacked', parent_path: '/9/' } });
    assert.is(response.status, 200, response.text);
    assert.is(response.body.data.full_name, `Fixed ${tag}`);
    assert.is(response.body.data.parent_path, '/');
  });

  test('renaming a category renames it in its own full_name and in those of all its subcategories', async () => {
    const { client, token } = await sharedApp(target);
    const top = await create('Furniture');
    const middle = await create('Seating', top.id);
    const leaf = await create('Stools', middle.id);
    const renamed = await client.put(`${BASE}/${top.id}`, { token, body: { name: `Furnishings ${tag}` } });
    assert.is(renamed.status, 200, renamed.text);
    assert.is(renamed.body.data.full_name, `Furnishings ${tag}`);
    const shownMiddle = (await client.get(`${BASE}/${middle.id}`, { token })).body.data;
    assert.is(shownMiddle.full_name, `Furnishings ${tag} / Seating ${tag}`);
    const shownLeaf = (await client.get(`${BASE}/${leaf.id}`, { token })).body.data;
    assert.is(shownLeaf.full_name, `Furnishings ${tag} / Seating ${tag} / Stools ${tag}`);
    assert.is(shownLeaf.parent_path, `/${top.id}/${middle.id}/`, 'a rename keeps the paths');
  });

  test('moving a category moves its whole subtree; moving it to the root clears its path', async () => {
    const { client, token } = await sharedApp(target);
    const branch = await create('Branch');
    const twig = await create('Twig', branch.id);
    const moved = await client.put(`${BASE}/${branch.id}`, { token, body: { parent_id: 6 } });
    assert.is(moved.status, 200, moved.text);
    assert.is(moved.body.data.full_name, `All / Saleable / Branch ${tag}`);
    assert.is(moved.body.data.parent_path, '/1/6/');
    const shownTwig = (await client.get(`${BASE}/${twig.id}`, { token })).body.data;
    assert.is(shownTwig.full_name, `All / Saleable / Branch ${tag} / Twig ${tag}`);
    assert.is(shownTwig.parent_path, `/1/6/${branch.id}/`);

    const toRoot = await client.put(`${BASE}/${branch.id}`, { token, body: { parent_id: null } });
    assert.is(toRoot.body.data.full_name, `Branch ${tag}`);
    assert.is(toRoot.body.data.parent_path, '/');
    const again = (await client.get(`${BASE}/${twig.id}`, { token })).body.data;
    assert.is(again.full_name, `Branch ${tag} / Twig ${tag}`);
    assert.is(again.parent_path, `/${branch.id}/`);
  });

  test('a category cannot be its own parent or move under one of its subcategories (422, unchanged)', async () => {
    const { client, token } = await sharedApp(target);
    const top = await create('Loop');
    const below = await create('Loop child', top.id);
    const deepest = await create('Loop grandchild', below.id);
    for (const parent_id of [top.id, below.id, deepest.id]) {
      const response = await client.put(`${BASE}/${top.id}`, { token, body: { parent_id } });
      assert.is(response.status, 422, `${parent_id}: ${response.text}`);
      assert.equal(Object.keys(response.body.errors), ['parent_id']);
    }
    const shown = (await client.get(`${BASE}/${top.id}`, { token })).body.data;
    assert.is(shown.parent_id, null);
    assert.is(shown.full_name, `Loop ${tag}`);
  });

  test('a category with subcategories cannot be deleted (409); once they are gone it can', async () => {
    const { client, token } = await sharedApp(target);
    const parent = await create('Parent');
    const child = await create('Only child', parent.id);
    const refused = await client.delete(`${BASE}/${parent.id}`, { token });
    assert.is(refused.status, 409, refused.text);
    assert.type(refused.body.message, 'string');
    assert.is((await client.get(`${BASE}/${parent.id}`, { token })).status, 200, 'still there');
    assert.is((await client.delete(`${BASE}/${child.id}`, { token })).status, 200);
    const deleted = await client.delete(`${BASE}/${parent.id}`, { token });
    assert.equal(deleted.body, { message: 'Category deleted successfully.' });
  });

  test('a category that products use cannot be deleted (409, not 500)', async () => {
    const { client, token, knex } = await sharedApp(target);
    const category = await create('Used');
    const [productId] = await knex('products_products').insert({ name: `Product ${tag}`, type: 'goods', price: 1, category_id: category.id });
    try {
      const refused = await client.delete(`${BASE}/${category.id}`, { token });
      assert.is(refused.status, 409, refused.text);
      assert.is((await client.get(`${BASE}/${category.id}`, { token })).status, 200, 'still there');
    } finally {
      await knex('products_products').where('id', productId).delete();
    }
    assert.is((await client.delete(`${BASE}/${category.id}`, { token })).status, 200);
  });

  test('a full_name longer than its 1024-character column is a 422, not a database error', async () => {
    const { client, token } = await sharedApp(target);
    let parentId: number | undefined;
    for (let level = 1; level <= 3; level++) parentId = (await create(`${'L'.repeat(247)}${level}`, parentId)).id;
    const tooDeep = await client.post(BASE, { token, body: { name: `${'L'.repeat(254)}4`, parent_id: parentId } });
    assert.is(tooDeep.status, 422, tooDeep.text);
    assert.ok(tooDeep.body.errors.name);
  });

  test('include=parent,children shows the neighbours', async () => {
    const { client, token } = await sharedApp(target);
    const shown = await client.get(`${BASE}/6?include=parent,children`, { token });
    assert.is(shown.status, 200, shown.text);
    assert.is(shown.body.data.parent.name, 'All');
    const names = shown.body.data.children.map((c: any) => c.name);
    for (const name of ['Office Furniture', 'Outdoor furniture', 'Services']) assert.ok(names.includes(name), name);
  });

  test.run();
}
