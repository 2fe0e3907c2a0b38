// A product's attributes (reference-projects-extras §6) and the catalogue's variants made from them
// (§7): the options of an attribute become its values, shown with include=values.attributeOption;
// options of another attribute are refused; sending options replaces the values; a delete is
// refused while a variant is used elsewhere, and otherwise takes the variants with it. The
// accounting view's `attribute_options` reads and writes the same rows.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { userWith } from '../../helpers/access.ts';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { asAdmin } from '../../helpers/as-admin.ts';
import { type SizesAndColours, sizesAndColours } from '../../helpers/attribute-options.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const IN_USE =
  "This attribute cannot be removed because some of this product's variants are already used in other records. Remove those variants first, or drop only the unused values.";

for (const target of databaseTargets()) {
  const test = suite(`per-product attributes [${target.name}]`);
  let app: TestApp & { token: string };
  const tag = Math.random().toString(36).slice(2, 8);
  let ids: SizesAndColours;
  const { call, created } = asAdmin(() => app);
  const product = async (name: string) =>
    (await created('/products/products', { type: 'goods', name, price: 100, cost: 60, reference: 'PA', category_id: ids.category })).id as number;
  const valuesOf = async (productAttributeId: number) =>
    (await app.knex('products_product_attribute_values').where('product_attribute_id', productAttributeId).orderBy('attribute_option_id').pluck('attribute_option_id')).map(Number);

  test.before(async () => {
    app = await sharedApp(target);
    ids = await sizesAndColours(app, tag);
  });

  test('the options become values, shown with their options; the accounting view sees them', async () => {
    const shirt = await product(`Shirt ${tag}`);
    const size = await created(`/products/products/${shirt}/attributes?include=values.attributeOption,attribute,options`, {
      attribute_id: ids.size,
      options: [ids.small, ids.medium],
    });
    assert.is(size.product_id, shirt);
    assert.is(size.attribute_id, ids.size);
    assert.is(size.attribute.id, ids.size);
    assert.equal(size.options.map((option: { id: number }) => option.id).sort(), [ids.small, ids.medium].sort());
    assert.equal(size.values.map((value: Record<string, any>) => [value.product_id, value.attribute_id, value.product_attribute_id, value.attribute_option.name]).sort(), [
      [shirt, ids.size, size.id, 'M'],
      [shirt, ids.size, size.id, 'S'],
    ]);
    const listed = await call('get', `/products/products/${shirt}/attributes?filter[attribute_id]=${ids.size}`);
    assert.equal(
      listed.body.data.map((row: { id: number }) => row.id),
      [size.id],
    );

    const accounting = await call('get', `/accounts/products/${shirt}?include=attributeOptions`);
    assert.equal(
      accounting.body.data.attribute_options.map((option: { id: number }) => option.id).sort(),
      [ids.small, ids.medium].sort(),
      'one source: the product attribute values',
    );
  });

  test('options of another attribute are refused (422), changing nothing', async () => {
    const shirt = await product(`Polo ${tag}`);
    const refused = await call('post', `/products/products/${shirt}/attributes`, { attribute_id: ids.size, options: [ids.small, ids.red] });
    assert.is(refused.status, 422, refused.text);
    assert.ok(refused.body.errors['options.1'], refused.text);
    assert.not.ok(refused.body.errors['options.0']);
    assert.is(await app.knex('products_product_attributes').where('product_id', shirt).first(), undefined);

    const size = await created(`/products/products/${shirt}/attributes`, { attribute_id: ids.size, options: [ids.small] });
    const badUpdate = await call('put', `/products/products/${shirt}/attributes/${size.id}`, { options: [ids.blue] });
    assert.is(badUpdate.status, 422);
    assert.equal(await valuesOf(size.id), [ids.small]);
    const missing = await call('post', `/products/products/${shirt}/attributes`, { attribute_id: ids.size, options: [99999999] });
    assert.is(missing.status, 422);
    assert.ok(missing.body.errors['options.0']);
  });

  test('sending options replaces the values; leaving them out keeps them; another attribute without options clears them', async () => {
    const shirt = await product(`Tee ${tag}`);
    const size = await created(`/products/products/${shirt}/attributes`, { attribute_id: ids.size, options: [ids.small] });
    const path = `/products/products/${shirt}/attributes/${size.id}`;
    const replaced = await call('put', path, { options: [ids.medium] });
    assert.is(replaced.status, 200, replaced.text);
    assert.is(replaced.body.message, 'Product attribute updated successfully.');
    assert.equal(await valuesOf(size.id), [ids.medium]);
    await call('put', path, { sort: 7 });
    assert.equal(await valuesOf(size.id), [ids.medium], 'options left out: values kept');
    await call('put', path, { attribute_id: ids.color });
    assert.equal(await valuesOf(size.id), [], 'the old attribute’s values are not the new one’s');
    await call('put', path, { options: [ids.red, ids.blue] });
    assert.equal(
      await valuesOf(size.id),
      [ids.red, ids.blue].sort((a, b) => a - b),
    );
    await call('put', path, { options: [] });
    assert.equal(await valuesOf(size.id), []);
  });

  test('a delete is refused while a variant is in use; otherwise the variants go with the attribute', async () => {
    const shirt = await product(`Coat ${tag}`);
    const size = await created(`/products/products/${shirt}/attributes`, { attribute_id: ids.size, options: [ids.small, ids.medium] });
    const color = await created(`/products/products/${shirt}/attributes`, { attribute_id: ids.color, options: [ids.red] });
    const variants = (await call('post', `/products/products/${shirt}/variants`)).body.data as Array<{ id: number }>;
    assert.is(variants.length, 2);
    const location = await app.knex('inventories_locations').orderBy('id').first('id');
    await app.knex('inventories_product_quantities').insert({ product_id: variants[0]!.id, location_id: location.id, quantity: 1 });

    const refused = await call('delete', `/products/products/${shirt}/attributes/${color.id}`);
    assert.is(refused.status, 422, refused.text);
    assert.equal(refused.body, { message: IN_USE });
    assert.is((await app.knex('products_products').where('parent_id', shirt)).length, 2, 'nothing removed');
    assert.ok(await app.knex('products_product_attributes').where('id', color.id).first());

    await app.knex('inventories_product_quantities').where('product_id', variants[0]!.id).delete();
    await call('delete', `/products/products/${shirt}/variants/${variants[1]!.id}`); // an archived variant goes too
    const deleted = await call('delete', `/products/products/${shirt}/attributes/${color.id}`);
    assert.equal(deleted.body, { message: 'Product attribute deleted successfully.' });
    assert.is((await app.knex('products_products').where('parent_id', shirt)).length, 0, 'the variants went with it');
    assert.is(await app.knex('products_product_attribute_values').where('product_attribute_id', color.id).first(), undefined);
    assert.equal(
      await valuesOf(size.id),
      [ids.small, ids.medium].sort((a, b) => a - b),
      'the other attribute keeps its values',
    );
  });

  test('the accounting view’s attribute_options write product attributes, one per attribute', async () => {
    const response = await call('post', '/accounts/products', {
      type: 'goods',
      name: `Scarf ${tag}`,
      price: 10,
      category_id: ids.category,
      attribute_options: [ids.red, ids.small, ids.blue],
    });
    assert.is(response.status, 201, response.text);
    const id = response.body.data.id;
    const attributes = await call('get', `/products/products/${id}/attributes?sort=sort&include=options`);
    assert.equal(
      attributes.body.data.map((row: Record<string, any>) => [row.attribute_id, row.options.map((option: { id: number }) => option.id).sort((a: number, b: number) => a - b)]),
      [
        [ids.size, [ids.small]],
        [ids.color, [ids.red, ids.blue].sort((a, b) => a - b)],
      ],
    );
    await call('put', `/accounts/products/${id}`, { attribute_options: [ids.medium] });
    const after = await call('get', `/products/products/${id}/attributes?include=options`);
    assert.equal(
      after.body.data.map((row: Record<string, any>) => [row.id, row.attribute_id, row.options.map((option: { id: number }) => option.id)]),
      [[attributes.body.data[0].id, ids.size, [ids.medium]]],
      'the size attribute is kept with its new value; the colour goes',
    );
  });

  test('reading needs view_product_product, writing update_product_product, on the product', async () => {
    const shirt = await product(`Hat ${tag}`);
    const size = await created(`/products/products/${shirt}/attributes`, { attribute_id: ids.size, options: [ids.small] });
    const reader = await userWith(app, { only: ['view_product_product'] });
    assert.is((await app.client.get(`${API}/products/products/${shirt}/attributes/${size.id}`, { token: reader.token })).status, 200);
    assert.is((await app.client.put(`${API}/products/products/${shirt}/attributes/${size.id}`, { token: reader.token, body: { sort: 1 } })).status, 403);
    const writer = await userWith(app, { only: ['update_product_product'] });
    assert.is((await app.client.put(`${API}/products/products/${shirt}/attributes/${size.id}`, { token: writer.token, body: { sort: 1 } })).status, 200);
    assert.is((await app.client.get(`${API}/products/products/${shirt}/attributes`, { token: writer.token })).status, 403);
  });

  test.run();
}
