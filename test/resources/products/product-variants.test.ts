// The catalogue's product variants (reference-projects-extras §7): POST on the collection syncs
// them from the product's attributes and answers every variant (200, unpaginated), on the
// catalogue path with create_product_product and on the accounting path with
// update_account_product; they are then edited, archived, restored and removed under their product.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { userWith } from '../../helpers/access.ts';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { asAdmin } from '../../helpers/as-admin.ts';
import { type SizesAndColours, sizesAndColours } from '../../helpers/attribute-options.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`catalogue product variants [${target.name}]`);
  let app: TestApp & { token: string };
  const tag = Math.random().toString(36).slice(2, 8);
  let ids: SizesAndColours;
  const { call, created } = asAdmin(() => app);
  const product = async (name: string) =>
    (await created('/products/products', { type: 'goods', name, price: 100, cost: 60, reference: 'PA', category_id: ids.category })).id as number;

  test.before(async () => {
    app = await sharedApp(target);
    ids = await sizesAndColours(app, tag);
  });

  test('variants: POST on the collection syncs them (200, every variant), then they are edited, archived, restored, removed', async () => {
    const shirt = await product(`Vest ${tag}`);
    await created(`/products/products/${shirt}/attributes`, { attribute_id: ids.size, options: [ids.small, ids.medium] });
    await created(`/products/products/${shirt}/attributes`, { attribute_id: ids.color, options: [ids.red, ids.blue] });
    const synced = await call('post', `/products/products/${shirt}/variants?include=attributeValues`);
    assert.is(synced.status, 200, synced.text);
    assert.is(synced.body.message, 'Product variants synced successfully.');
    assert.not.ok('meta' in synced.body, 'not paginated');
    assert.equal(synced.body.data.map((variant: Record<string, any>) => [variant.name, variant.price]).sort(), [
      [`Vest ${tag} - M / Blue`, 107.5],
      [`Vest ${tag} - M / Red`, 105],
      [`Vest ${tag} - S / Blue`, 102.5],
      [`Vest ${tag} - S / Red`, 100],
    ]);
    for (const variant of synced.body.data) assert.is(variant.attribute_values.length, 2);
    const again = await call('post', `/products/products/${shirt}/variants`);
    assert.equal(
      again.body.data.map((variant: { id: number }) => variant.id),
      synced.body.data.map((variant: { id: number }) => variant.id),
      'a second sync keeps the same variants',
    );
    assert.is((await app.knex('products_products').where('id', shirt).first()).is_configurable ? 1 : 0, 1);

    const listed = await call('get', `/products/products/${shirt}/variants?sort=name`);
    assert.is(listed.body.data.length, 4);
    const path = `/products/products/${shirt}/variants/${listed.body.data[0].id}`;
    const updated = await call('put', path, { price: 99 });
    assert.is(updated.status, 200, updated.text);
    assert.is(updated.body.message, 'Product variant updated successfully.');
    assert.is(updated.body.data.price, 99);
    assert.equal((await call('delete', path)).body, { message: 'Product variant deleted successfully.' });
    assert.is((await call('get', path)).status, 404);
    const restored = await call('post', `${path}/restore`);
    assert.is(restored.status, 200, restored.text);
    assert.is(restored.body.message, 'Product variant restored successfully.');
    assert.equal((await call('delete', `${path}/force`)).body, { message: 'Product variant permanently deleted.' });

    const other = await product(`Other ${tag}`);
    assert.is((await call('get', `/products/products/${other}/variants/${listed.body.data[1].id}`)).status, 404, "another product's variant");
    assert.is((await call('post', '/products/products/99999999/variants')).status, 404);

    // The accounting path answers the same way.
    const accounting = await call('post', `/accounts/products/${shirt}/variants`);
    assert.is(accounting.status, 200, accounting.text);
    assert.is(accounting.body.data.length, 4, 'the force-deleted one is made again');
  });

  test('the sync needs create_product_product (products) or update_account_product (accounts)', async () => {
    const shirt = await product(`Cap ${tag}`);
    await created(`/products/products/${shirt}/attributes`, { attribute_id: ids.size, options: [ids.small] });
    const updater = await userWith(app, { only: ['update_product_product', 'update_account_product'] });
    assert.is((await app.client.post(`${API}/products/products/${shirt}/variants`, { token: updater.token })).status, 403);
    assert.is((await app.client.post(`${API}/accounts/products/${shirt}/variants`, { token: updater.token })).status, 200);
    const creator = await userWith(app, { only: ['create_product_product'] });
    assert.is((await app.client.post(`${API}/products/products/${shirt}/variants`, { token: creator.token })).status, 200);
    assert.is((await app.client.post(`${API}/accounts/products/${shirt}/variants`, { token: creator.token })).status, 403);
  });

  test.run();
}
