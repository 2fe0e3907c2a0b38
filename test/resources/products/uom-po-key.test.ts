// include=uomPO answers under `uom_po`, the key clients of the original read (reference §3).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`uom_po key [${target.name}]`);
  test('the purchase unit of every product resource is `uom_po`', async () => {
    const { client, token, knex } = await sharedApp(target);
    const category = (await knex('products_categories').orderBy('id').first('id')).id;
    const created = await client.post(`${API}/products/products`, { token, body: { type: 'goods', name: `Keyed ${target.name}`, price: 1, category_id: category } });
    for (const path of ['products/products', 'inventories/products', 'accounts/products']) {
      const shown = await client.get(`${API}/${path}/${created.body.data.id}?include=uomPO`, { token });
      assert.is(shown.status, 200, shown.text);
      assert.ok('uom_po' in shown.body.data, path);
      assert.not.ok('uom_p_o' in shown.body.data, path);
      assert.is(shown.body.data.uom_po.id, created.body.data.uom_po_id);
    }
  });
  test.run();
}
