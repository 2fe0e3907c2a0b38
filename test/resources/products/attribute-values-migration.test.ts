// The migration that gives products attributes of their own carries the values products offered
// (products_product_attribute_options) over: one product attribute per product and attribute, in
// the attributes' order, with its values; the API then shows them and syncs variants from them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Knex } from 'knex';
import * as migration from '../../../migrations/20261128000003_create_bank_accounts_and_product_attributes.ts';
import { API, startApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets, freshDatabase } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`product attribute values migration [${target.name}]`);

  test('offered options become product attributes with values', async () => {
    const database = await freshDatabase(target, 'attribute-values', { migrated: true });
    let app: TestApp | undefined;
    const seeded = { product: 0, attributes: [] as number[], options: [] as number[] };
    // Back to the tables before the migration, a product offering two values of the first
    // attribute and one of the second, then the migration again.
    const prepare = async (knex: Knex) => {
      // The later migrations' search index of the bank accounts this one made goes first (on
      // MySQL/MariaDB, word pairs that reference them: the table could not be dropped).
      await knex.schema.dropTableIfExists('partners_bank_accounts_search');
      await migration.down(knex);
      const [first, second] = (
        await knex('products_attributes')
          .orderBy([{ column: 'sort' }, { column: 'id' }])
          .limit(2)
          .pluck('id')
      ).map(Number);
      const options = async (attribute: number, count: number) =>
        (await knex('products_attribute_options').where('attribute_id', attribute).orderBy('id').limit(count).pluck('id')).map(Number);
      seeded.attributes = [first!, second!];
      seeded.options = [...(await options(first!, 2)), ...(await options(second!, 1))];
      const [product] = await knex('products_products').insert({
        type: 'goods',
        name: 'Migrated shirt',
        price: 10,
        uom_id: (await knex('unit_of_measures').orderBy('id').first('id')).id,
        uom_po_id: (await knex('unit_of_measures').orderBy('id').first('id')).id,
        category_id: (await knex('products_categories').orderBy('id').first('id')).id,
        is_favorite: false,
      });
      seeded.product = Number(product);
      // The second attribute's value first: the migration orders by attribute, not by row.
      await knex('products_product_attribute_options').insert([...seeded.options].reverse().map((option) => ({ product_id: seeded.product, attribute_option_id: option })));
      await migration.up(knex);
    };
    try {
      app = await startApp(database.target, { prepare });
      const token = await app.login();
      assert.not.ok(await app.knex.schema.hasTable('products_product_attribute_options'), 'the old table is gone');
      const attributes = await app.client.get(`${API}/products/products/${seeded.product}/attributes?sort=sort,id&include=options`, { token });
      assert.is(attributes.status, 200, attributes.text);
      assert.equal(
        attributes.body.data.map((row: Record<string, any>) => [row.attribute_id, row.options.map((option: { id: number }) => option.id).sort((a: number, b: number) => a - b)]),
        [
          [seeded.attributes[0], seeded.options.slice(0, 2).sort((a, b) => a - b)],
          [seeded.attributes[1], seeded.options.slice(2)],
        ],
      );
      const synced = await app.client.post(`${API}/products/products/${seeded.product}/variants`, { token });
      assert.is(synced.status, 200, synced.text);
      assert.is(synced.body.data.length, 2);
    } finally {
      await app?.close();
      await database.drop();
    }
  });

  test.run();
}
