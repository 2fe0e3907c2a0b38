// Variants a sync creates, and the product attributes an accounting product's options make, go
// through the engine's writer (createMany): each is validated as a create of its resource would
// be, and the change feed shows each with its fields.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sharedApp, type TestApp } from '../../helpers/app.ts';
import { asAdmin } from '../../helpers/as-admin.ts';
import { type SizesAndColours, sizesAndColours } from '../../helpers/attribute-options.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`variant changes [${target.name}]`);
  let app: TestApp & { token: string };
  const tag = Math.random().toString(36).slice(2, 8);
  let ids: SizesAndColours;
  const admin = asAdmin(() => app);

  /** Every change after `after` of the products and their variants, following the cursors. */
  async function variantChanges(after: string, resources = 'accounts/product-variants,accounts/products') {
    const changes: any[] = [];
    let cursor = after;
    for (;;) {
      const page = await admin.call('get', `/changes?after=${cursor}&resources=${resources}&limit=100`);
      assert.is(page.status, 200, page.text);
      changes.push(...page.body.data);
      cursor = page.body.next_cursor;
      if (!page.body.has_more) return { changes, cursor };
    }
  }
  const newest = async (resources?: string) => (await variantChanges(String((await app.knex('change_feed').first('purged_through')).purged_through), resources)).cursor;

  test.before(async () => {
    app = await sharedApp(target);
    ids = await sizesAndColours(app, tag);
  });

  test('the variants a sync creates are in the change feed, each with its fields', async () => {
    const shirt = await admin.created('/accounts/products', {
      type: 'goods',
      name: `Feed shirt ${tag}`,
      price: 10,
      cost: 4,
      category_id: ids.category,
      attribute_options: [ids.small, ids.medium, ids.red],
    });
    const start = await newest();
    await admin.post(`/accounts/products/${shirt.id}/sync-variants`);
    const variants = (await admin.get(`/accounts/products/${shirt.id}/variants?sort=name`)).data as Array<Record<string, any>>;
    assert.equal(
      variants.map((variant) => [variant.name, variant.price]),
      [
        [`Feed shirt ${tag} - M / Red`, 15],
        [`Feed shirt ${tag} - S / Red`, 10],
      ],
    );
    const { changes } = await variantChanges(start);
    // The product made configurable is the sync's own change.
    assert.equal(
      changes.filter((change) => change.resource === 'accounts/products').map((change) => `${change.record_id} ${change.kind}`),
      [`${shirt.id} variants_synced`],
    );
    const created = changes.filter((change) => change.resource === 'accounts/product-variants' && change.kind === 'created');
    assert.equal(created.map((change) => change.record_id).sort(), variants.map((variant) => variant.id).sort());
    for (const change of created) {
      const variant = variants.find((candidate) => candidate.id === change.record_id)!;
      for (const field of ['name', 'price', 'cost', 'parent_id', 'category_id', 'sort', 'creator_id', 'created_at'])
        assert.equal(change.record[field], variant[field], `${field} of ${variant.name}`);
      assert.ok(change.record.created_at, 'stamped by the engine');
    }
  });

  test('a variant its create would refuse is refused (422), and nothing is made or recorded', async () => {
    // The highest price a product takes, plus M's extra 5: more than a variant's price may be.
    const dear = await admin.created('/accounts/products', {
      type: 'goods',
      name: `Feed dear ${tag}`,
      price: 99999999999,
      category_id: ids.category,
      attribute_options: [ids.medium],
    });
    const start = await newest();
    const refused = await admin.call('post', `/accounts/products/${dear.id}/sync-variants`);
    assert.is(refused.status, 422, refused.text);
    assert.ok(refused.body.message);
    assert.ok(refused.body.errors.price, refused.text);
    assert.equal((await admin.get(`/accounts/products/${dear.id}/variants`)).data, []);
    assert.equal((await variantChanges(start)).changes, []);
  });

  test("the product attributes an accounting product's attribute_options make, change and remove are in the change feed", async () => {
    const start = await newest('products/product-attributes');
    const scarf = await admin.created('/accounts/products', {
      type: 'goods',
      name: `Feed scarf ${tag}`,
      price: 10,
      category_id: ids.category,
      attribute_options: [ids.red, ids.small],
    });
    const attributes = (await admin.get(`/products/products/${scarf.id}/attributes?sort=sort`)).data as Array<Record<string, any>>;
    assert.equal(
      attributes.map((row) => row.attribute_id),
      [ids.size, ids.color],
    );
    const { changes } = await variantChanges(start, 'products/product-attributes');
    assert.equal(
      changes.map((change) => `${change.record_id} ${change.kind}`),
      attributes.map((row) => `${row.id} created`),
    );
    for (const change of changes) {
      const row = attributes.find((candidate) => candidate.id === change.record_id)!;
      assert.equal([change.record.product_id, change.record.attribute_id, change.record.sort, change.record.creator_id], [scarf.id, row.attribute_id, row.sort, row.creator_id]);
    }

    // Another offer: the colour attribute goes, the size one is kept with another option.
    const again = await newest('products/product-attributes');
    const [size, color] = attributes;
    assert.is((await admin.call('put', `/accounts/products/${scarf.id}`, { attribute_options: [ids.medium] })).status, 200);
    const after = (await variantChanges(again, 'products/product-attributes')).changes;
    assert.equal(
      after.map((change) => [change.record_id, change.kind, change.changed ?? null]),
      [
        [color!.id, 'force_deleted', null],
        [size!.id, 'updated', ['options']],
      ],
    );
    assert.equal(
      (await admin.get(`/products/products/${scarf.id}/attributes?include=options`)).data.map((row: any) => row.options.map((option: any) => option.id)),
      [[ids.medium]],
    );
  });

  test.run();
}
