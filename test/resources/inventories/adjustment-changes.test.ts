// An applied inventory count creates its adjustment move through the engine's writer: the move
// takes the definition's defaults (scheduled now) and keeps what the system states where there is
// no operation to copy from (its reference and company), and the change feed shows it as a GET does.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sharedApp, type TestApp } from '../../helpers/app.ts';
import { asAdmin } from '../../helpers/as-admin.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`adjustment changes [${target.name}]`);
  let app: TestApp & { token: string };
  const admin = asAdmin(() => app);
  const RESOURCES = 'inventories/moves,inventories/quantities';

  async function changesAfter(after: string) {
    const changes: any[] = [];
    let cursor = after;
    for (;;) {
      const page = await admin.call('get', `/changes?after=${cursor}&resources=${RESOURCES}&limit=100`);
      assert.is(page.status, 200, page.text);
      changes.push(...page.body.data);
      cursor = page.body.next_cursor;
      if (!page.body.has_more) return { changes, cursor };
    }
  }

  test.before(async () => {
    app = await sharedApp(target);
  });

  test('the adjustment move of an applied count is in the change feed as GET shows it', async () => {
    const category = (await app.knex('products_categories').orderBy('id').first('id')).id;
    const stock = await app.knex('inventories_locations').where('full_name', 'WH/Stock').first('id', 'company_id');
    const product = await admin.created('/inventories/products', { type: 'goods', name: `Counted jar ${target.name}`, price: 3, category_id: category });
    const counted = await admin.created('/inventories/quantities', { product_id: product.id, location_id: stock.id, counted_quantity: 4 });
    const start = (await changesAfter(String((await app.knex('change_feed').first('purged_through')).purged_through))).cursor;
    await admin.post(`/inventories/quantities/${counted.id}/apply`);

    const { changes } = await changesAfter(start);
    const seen = changes.map((change) => `${change.resource} ${change.kind}`);
    assert.equal(seen, ['inventories/moves created', 'inventories/quantities applied'], seen.join(' | '));
    const move = changes[0];
    const shown = await admin.get(`/inventories/moves/${move.record_id}`);
    assert.equal(move.record, shown.data, 'the move as GET shows it');
    assert.equal(
      [move.record.reference, move.record.company_id, move.record.is_inventory, move.record.state, Number(move.record.quantity), move.record.destination_location_id],
      ['Inventory adjustment', stock.company_id, true, 'done', 4, stock.id],
    );
    assert.ok(move.record.created_at && move.record.creator_id, 'stamped and signed by the engine');
    assert.ok(move.record.scheduled_at, "the definition's default: scheduled when it is made");
  });

  test.run();
}
