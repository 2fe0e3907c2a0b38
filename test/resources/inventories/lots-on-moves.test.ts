// Lots on operations' moves: a receipt brings stock into the lot its move names, a delivery takes
// it from there (and refuses what the lot does not hold, whatever other lots have), a return
// sends goods back with their lot; a lot of another product, or a new lot on a move that holds a
// reservation, is a 422 that changes nothing.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`lots on moves [${target.name}]`);
  let app: TestApp & { token: string };
  const ids = { stock: 0, cheese: 0, wine: 0, spring: 0, autumn: 0, vintage: 0 };
  const post = (path: string, body?: unknown) => app.client.post(`${API}${path}`, { token: app.token, body });
  const get = (path: string) => app.client.get(`${API}${path}`, { token: app.token });
  const created = async (path: string, body: Record<string, unknown>) => {
    const response = await post(path, body);
    assert.is(response.status, 201, `${path}: ${response.text}`);
    return response.body.data as Record<string, any>;
  };
  const act = async (path: string, expected = 200) => {
    const response = await post(path);
    assert.is(response.status, expected, `${path}: ${response.text}`);
    return response.body;
  };
  /** The lot's on-hand quantity as /inventories/lots computes it, and its rows at WH/Stock. */
  const lotStock = async (lot: number) => (await get(`/inventories/lots/${lot}`)).body.data.quantity as number;

  test.before(async () => {
    app = await sharedApp(target);
    const category = (await app.knex('products_categories').orderBy('id').first('id')).id;
    ids.stock = (await app.knex('inventories_locations').where('full_name', 'WH/Stock').first('id')).id;
    const tag = `${target.name} ${Math.random().toString(36).slice(2, 8)}`;
    ids.cheese = (await created('/inventories/products', { type: 'goods', name: `Cheese ${tag}`, price: 9, category_id: category, is_storable: true, tracking: 'lot' })).id;
    ids.wine = (await created('/inventories/products', { type: 'goods', name: `Wine ${tag}`, price: 9, category_id: category, is_storable: true, tracking: 'lot' })).id;
    ids.spring = (await created('/inventories/lots', { name: `SPRING-${tag}`, product_id: ids.cheese })).id;
    ids.autumn = (await created('/inventories/lots', { name: `AUTUMN-${tag}`, product_id: ids.cheese })).id;
    ids.vintage = (await created('/inventories/lots', { name: `VINTAGE-${tag}`, product_id: ids.wine })).id;
  });

  test('a receipt brings stock into the lot its move names; a delivery takes it from that lot only', async () => {
    const receipt = await created('/inventories/receipts', { moves: [{ product_id: ids.cheese, product_uom_qty: 5, lot_id: ids.spring }] });
    await act(`/inventories/receipts/${receipt.id}/todo`);
    await act(`/inventories/receipts/${receipt.id}/validate`);
    assert.is(await lotStock(ids.spring), 5);
    assert.is(await lotStock(ids.autumn), 0);
    const rows = await app.knex('inventories_product_quantities').where({ product_id: ids.cheese, location_id: ids.stock });
    assert.equal(
      rows.map((row) => [Number(row.lot_id), Number(row.quantity)]),
      [[ids.spring, 5]],
      'one ledger row, of the lot',
    );

    // Autumn holds nothing: its delivery is refused although Spring has 5, and nothing moves.
    const empty = await created('/inventories/deliveries', { moves: [{ product_id: ids.cheese, product_uom_qty: 2, lot_id: ids.autumn }] });
    await act(`/inventories/deliveries/${empty.id}/todo`);
    await act(`/inventories/deliveries/${empty.id}/validate`, 422);
    assert.is(await lotStock(ids.spring), 5);

    const delivery = await created('/inventories/deliveries', { moves: [{ product_id: ids.cheese, product_uom_qty: 2, lot_id: ids.spring }] });
    await act(`/inventories/deliveries/${delivery.id}/todo`);
    await act(`/inventories/deliveries/${delivery.id}/validate`);
    assert.is(await lotStock(ids.spring), 3);

    // The return of the receipt sends the goods back out of the same lot.
    const returned = await act(`/inventories/receipts/${receipt.id}/return`);
    const returnMoves = await app.knex('inventories_moves').where('operation_id', returned.data.id);
    assert.equal(
      returnMoves.map((move) => Number(move.lot_id)),
      [ids.spring],
    );
  });

  test('a lot of another product is a 422 on the move, and nothing is written', async () => {
    const before = await app.knex('inventories_operations').count({ n: '*' }).first();
    const refused = await post('/inventories/receipts', { moves: [{ product_id: ids.cheese, product_uom_qty: 1, lot_id: ids.vintage }] });
    assert.is(refused.status, 422, refused.text);
    assert.ok(refused.body.errors['moves.0.lot_id'], refused.text);
    const after = await app.knex('inventories_operations').count({ n: '*' }).first();
    assert.is(Number(after!.n), Number(before!.n));
  });

  test('a move holding a reservation keeps its lot until its operation is cancelled', async () => {
    const stocked = await created('/inventories/receipts', { moves: [{ product_id: ids.wine, product_uom_qty: 4, lot_id: ids.vintage }] });
    await act(`/inventories/receipts/${stocked.id}/todo`);
    await act(`/inventories/receipts/${stocked.id}/validate`);
    const delivery = await created('/inventories/deliveries', { moves: [{ product_id: ids.wine, product_uom_qty: 1, lot_id: ids.vintage }] });
    await act(`/inventories/deliveries/${delivery.id}/todo`); // reserves, as the delivery type says
    const move = (await app.knex('inventories_moves').where('operation_id', delivery.id).first())!;
    assert.is(Number(move.reserved_quantity), 1, 'reserved from the lot');
    const otherLot = (await created('/inventories/lots', { name: `OTHER-${target.name}-${Date.now()}`, product_id: ids.wine })).id;
    const changed = await app.client.send('PATCH', `${API}/inventories/deliveries/${delivery.id}`, {
      token: app.token,
      body: { moves: [{ id: move.id, product_id: ids.wine, product_uom_qty: 1, lot_id: otherLot }] },
    });
    assert.is(changed.status, 422, changed.text);
    assert.ok(changed.body.errors['moves.0.lot_id'], changed.text);
    assert.is(Number((await app.knex('inventories_moves').where('id', move.id).first())!.lot_id), ids.vintage);
  });

  test('a package on a move: received into it, delivered out of it', async () => {
    const crate = (await created('/inventories/packages', { name: `CRATE-${target.name}-${Date.now()}` })).id;
    const receipt = await created('/inventories/receipts', { moves: [{ product_id: ids.wine, product_uom_qty: 6, lot_id: ids.vintage, package_id: crate }] });
    await act(`/inventories/receipts/${receipt.id}/todo`);
    await act(`/inventories/receipts/${receipt.id}/validate`);
    const packed = async () => (await get(`/inventories/packages/${crate}`)).body.data;
    assert.is((await packed()).quantity, 6);
    assert.is((await packed()).location_id, ids.stock, 'the package is where its stock is');
    const delivery = await created('/inventories/deliveries', { moves: [{ product_id: ids.wine, product_uom_qty: 6, lot_id: ids.vintage, package_id: crate }] });
    await act(`/inventories/deliveries/${delivery.id}/todo`);
    await act(`/inventories/deliveries/${delivery.id}/validate`);
    assert.is((await packed()).quantity, 0);
  });

  test.run();
}
