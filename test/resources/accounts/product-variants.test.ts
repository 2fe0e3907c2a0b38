// Product variants (reference-o2c-p2p §3.6): a product offering Size S/M and Color Red/Blue
// gets four variants from sync-variants, named and priced by their values; a value it stops
// offering archives the variants made of it; a variant is edited, archived, restored and removed
// under its own product only.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sharedApp, type TestApp } from '../../helpers/app.ts';
import { asAdmin } from '../../helpers/as-admin.ts';
import { type SizesAndColours, sizesAndColours } from '../../helpers/attribute-options.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`product variants [${target.name}]`);
  let app: TestApp & { token: string };
  const tag = Math.random().toString(36).slice(2, 8);
  let ids: SizesAndColours;
  const admin = asAdmin(() => app);
  const call = admin.call;
  const created = async (path: string, body: Record<string, unknown>) => (await admin.created(path, body)).id as number;

  async function product(name: string, options: number[]) {
    return created('/accounts/products', { type: 'goods', name, price: 100, cost: 60, reference: 'TS', category_id: ids.category, attribute_options: options });
  }

  const variantsOf = async (id: number, query = '') => {
    const response = await call('get', `/accounts/products/${id}/variants?sort=name${query}`);
    assert.is(response.status, 200, response.text);
    return response.body.data as Array<Record<string, any>>;
  };

  test.before(async () => {
    app = await sharedApp(target);
    ids = await sizesAndColours(app, tag);
  });

  test('sync makes one variant per combination, named and priced by its values', async () => {
    const shirt = await product(`Shirt ${tag}`, [ids.small, ids.medium, ids.red, ids.blue]);
    const synced = await call('post', `/accounts/products/${shirt}/sync-variants?include=variants`);
    assert.is(synced.status, 200, synced.text);
    assert.is(synced.body.message, 'Product variants synced successfully.');
    assert.is(synced.body.data.is_configurable, true);
    assert.is(synced.body.data.variants.length, 4);

    const variants = await variantsOf(shirt, '&include=attributeValues');
    assert.equal(
      variants.map((v) => [v.name, v.price]),
      [
        [`Shirt ${tag} - M / Blue`, 107.5],
        [`Shirt ${tag} - M / Red`, 105],
        [`Shirt ${tag} - S / Blue`, 102.5],
        [`Shirt ${tag} - S / Red`, 100],
      ],
    );
    for (const variant of variants) {
      assert.is(variant.parent_id, shirt);
      assert.is(variant.cost, 60);
      assert.is(variant.type, 'goods');
      assert.is(variant.category_id, ids.category);
      assert.is(variant.attribute_values.length, 2);
    }
    assert.is(variants[0]!.reference, 'TS-m-blue');

    // A second sync changes nothing it need not: the same four variants.
    await call('post', `/accounts/products/${shirt}/sync-variants`);
    assert.equal(
      (await variantsOf(shirt)).map((v) => v.id),
      variants.map((v) => v.id),
    );
  });

  test('a value no longer offered archives its variants; offered again, they come back', async () => {
    const shirt = await product(`Polo ${tag}`, [ids.small, ids.medium, ids.red, ids.blue]);
    await call('post', `/accounts/products/${shirt}/sync-variants`);
    const before = await variantsOf(shirt);

    const changed = await call('put', `/accounts/products/${shirt}`, { attribute_options: [ids.small, ids.medium, ids.red], price: 110 });
    assert.is(changed.status, 200, changed.text);
    assert.is((await call('post', `/accounts/products/${shirt}/sync-variants`)).status, 200);
    const live = await variantsOf(shirt);
    assert.equal(
      live.map((v) => [v.name, v.price]),
      [
        [`Polo ${tag} - M / Red`, 115],
        [`Polo ${tag} - S / Red`, 110],
      ],
      'the kept variants follow the new price',
    );
    const archived = await variantsOf(shirt, '&filter[trashed]=only');
    assert.equal(
      archived.map((v) => v.name),
      [`Polo ${tag} - M / Blue`, `Polo ${tag} - S / Blue`],
    );

    await call('put', `/accounts/products/${shirt}`, { attribute_options: [ids.small, ids.medium, ids.red, ids.blue] });
    await call('post', `/accounts/products/${shirt}/sync-variants`);
    assert.equal(
      (await variantsOf(shirt)).map((v) => v.id),
      before.map((v) => v.id),
      'the archived variants are restored, not made again',
    );
  });

  test('a variant is updated, archived, restored and removed under its product', async () => {
    const shirt = await product(`Tee ${tag}`, [ids.small, ids.red]);
    await call('post', `/accounts/products/${shirt}/sync-variants`);
    const [variant] = await variantsOf(shirt);
    const path = `/accounts/products/${shirt}/variants/${variant!.id}`;

    const updated = await call('put', path, { price: 99, barcode: `BC${tag}` });
    assert.is(updated.status, 200, updated.text);
    assert.is(updated.body.message, 'Product variant updated successfully.');
    assert.is(updated.body.data.price, 99);
    assert.is(updated.body.data.parent_id, shirt);
    const invalid = await call('put', path, { price: -1 });
    assert.is(invalid.status, 422);
    assert.ok(invalid.body.errors.price);

    assert.equal((await call('delete', path)).body, { message: 'Product variant deleted successfully.' });
    assert.is((await call('get', path)).status, 404);
    const restored = await call('post', `${path}/restore`);
    assert.is(restored.status, 200, restored.text);
    assert.is(restored.body.message, 'Product variant restored successfully.');
    assert.is(restored.body.data.id, variant!.id);
    assert.is((await call('get', path)).status, 200);

    assert.equal((await call('delete', `${path}/force`)).body, { message: 'Product variant permanently deleted.' });
    assert.is(await app.knex('products_products').where('id', variant!.id).first(), undefined);
    assert.is((await app.knex('products_product_variant_values').where('product_id', variant!.id)).length, 0);
  });

  test("another product's variant is 404, and so is a missing product", async () => {
    const mine = await product(`Cap ${tag}`, [ids.small]);
    const other = await product(`Hat ${tag}`, [ids.medium]);
    await call('post', `/accounts/products/${mine}/sync-variants`);
    const [variant] = await variantsOf(mine);
    const elsewhere = `/accounts/products/${other}/variants/${variant!.id}`;
    assert.is((await call('get', elsewhere)).status, 404);
    assert.is((await call('put', elsewhere, { price: 1 })).status, 404);
    assert.is((await call('delete', elsewhere)).status, 404);
    assert.is((await call('post', `${elsewhere}/restore`)).status, 404);
    assert.is((await call('delete', `${elsewhere}/force`)).status, 404);
    assert.equal(await variantsOf(other), []);

    const missing = await call('get', '/accounts/products/99999999/variants');
    assert.is(missing.status, 404);
    assert.ok(missing.body.message);
    assert.is((await call('post', '/accounts/products/99999999/sync-variants')).status, 404);
  });

  test('a product without attribute values gets no variants; a variant gets none of its own', async () => {
    const plain = await product(`Plain ${tag}`, []);
    const synced = await call('post', `/accounts/products/${plain}/sync-variants?include=variants`);
    assert.is(synced.status, 200, synced.text);
    assert.equal(synced.body.data.variants, []);
    assert.is(synced.body.data.is_configurable, false);

    const shirt = await product(`Vest ${tag}`, [ids.small]);
    await call('post', `/accounts/products/${shirt}/sync-variants`);
    const [variant] = await variantsOf(shirt);
    const refused = await call('post', `/accounts/products/${variant!.id}/sync-variants`);
    assert.is(refused.status, 422);
    assert.equal(refused.body, { message: 'A product variant cannot have variants of its own.' });
  });

  test.run();
}
