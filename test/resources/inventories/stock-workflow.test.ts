// Stock operations through their states on the stock ledger: receipts bring stock in, deliveries
// reserve and take it out, internal transfers move it, dropships never touch it, returns send
// goods back, cancels release reservations, inventory counts adjust it, and no sequence of these
// (concurrent ones included) ever overdraws a location or lets the ledger disagree with the moves.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`stock workflow [${target.name}]`);
  let app: TestApp & { token: string };
  const ids: Record<string, number> = {};
  const post = (path: string, body?: unknown) => app.client.post(`${API}${path}`, { token: app.token, body });
  const get = (path: string) => app.client.get(`${API}${path}`, { token: app.token });
  const onHand = async (product: number, location = ids.stock!) =>
    Number((await app.knex('inventories_product_quantities').where({ product_id: product, location_id: location }).first('quantity'))?.quantity ?? 0);
  const reserved = async (product: number, location = ids.stock!) =>
    Number((await app.knex('inventories_product_quantities').where({ product_id: product, location_id: location }).first('reserved_quantity'))?.reserved_quantity ?? 0);
  let productCount = 0;
  const product = async (name: string) => {
    const response = await post('/inventories/products', { type: 'goods', name: `${name} ${target.name} ${++productCount}`, price: 10, category_id: ids.category });
    assert.is(response.status, 201, response.text);
    return response.body.data.id as number;
  };
  const operation = async (resource: string, moves: Array<[number, number]>, extra: Record<string, unknown> = {}) => {
    const response = await post(`/inventories/${resource}`, { ...extra, moves: moves.map(([product_id, product_uom_qty]) => ({ product_id, product_uom_qty })) });
    assert.is(response.status, 201, response.text);
    return response.body.data.id as number;
  };
  const act = async (resource: string, id: number, action: string, expected = 200, body?: unknown) => {
    const response = await post(`/inventories/${resource}/${id}/${action}`, body);
    assert.is(response.status, expected, `${resource} ${id} ${action}: ${response.text}`);
    return response.body;
  };
  /** Receives `quantity` of the product into WH/Stock. */
  const receive = async (productId: number, quantity: number) => {
    const id = await operation('receipts', [[productId, quantity]]);
    await act('receipts', id, 'todo');
    await act('receipts', id, 'validate');
  };

  test.before(async () => {
    app = await sharedApp(target);
    ids.category = (await app.knex('products_categories').orderBy('id').first('id')).id;
    ids.stock = (await app.knex('inventories_locations').where('full_name', 'WH/Stock').first('id')).id;
    ids.vendors = (await app.knex('inventories_locations').where('type', 'supplier').first('id')).id;
    ids.customers = (await app.knex('inventories_locations').where('type', 'customer').first('id')).id;
  });

  test('a receipt: todo makes it ready, validate brings the stock in and closes it', async () => {
    const chair = await product('Chair');
    const id = await operation('receipts', [[chair, 10]]);
    const todo = await act('receipts', id, 'todo');
    assert.is(todo.message, 'Receipt set to todo successfully.');
    assert.is(todo.data.state, 'assigned', 'goods from a vendor are ready at once');
    const validated = await post(`/inventories/receipts/${id}/validate?include=moves`);
    assert.is(validated.status, 200, validated.text);
    assert.is(validated.body.message, 'Receipt validated successfully.');
    assert.is(validated.body.data.state, 'done');
    assert.ok(validated.body.data.closed_at, 'closed_at is set');
    assert.equal(
      validated.body.data.moves.map((move: any) => [move.state, move.quantity]),
      [['done', 10]],
    );
    assert.is(await onHand(chair), 10);
    const shown = await get(`/inventories/products/${chair}`);
    assert.equal([shown.body.data.on_hand_quantity, shown.body.data.reserved_quantity, shown.body.data.free_quantity], [10, 0, 10]);
  });

  test('the declared guards and the ones behaviours add answer 422 {message}', async () => {
    const chair = await product('Chair');
    const empty = await operation('receipts', []);
    assert.equal(await act('receipts', empty, 'todo', 422), { message: 'Cannot set operation to todo without moves.' });
    const id = await operation('receipts', [[chair, 1]]);
    assert.equal(await act('receipts', id, 'check-availability', 422), { message: 'Only waiting, confirmed or assigned operations can check availability.' });
    assert.equal(await act('receipts', id, 'return', 422), { message: 'Only done operations can be returned.' });
    await act('receipts', id, 'todo');
    assert.equal(await act('receipts', id, 'todo', 422), { message: 'Only draft operations can be set to todo.' });
    assert.equal(await act('receipts', id, 'check-availability', 422), { message: 'No operation moves are eligible for availability check.' });
    await act('receipts', id, 'validate');
    assert.equal(await act('receipts', id, 'validate', 422), { message: 'Only non-done and non-canceled operations can be validated.' });
    assert.equal(await act('receipts', id, 'cancel', 422), { message: 'Only non-done and non-canceled operations can be canceled.' });
    const update = await app.client.put(`${API}/inventories/receipts/${id}`, { token: app.token, body: { origin: 'too late' } });
    assert.equal(update.body, { message: 'A done operation cannot be changed.' });
    assert.equal((await app.client.delete(`${API}/inventories/receipts/${id}`, { token: app.token })).body, { message: 'A done operation cannot be deleted: return it instead.' });
    const delivery = await operation('deliveries', [[chair, 1]]);
    assert.is((await post(`/inventories/receipts/${delivery}/validate`)).status, 404, 'a delivery is not a receipt');
  });

  test('a delivery reserves at todo, partially when short; validating more than is on hand is refused and changes nothing', async () => {
    const desk = await product('Desk');
    await receive(desk, 5);
    const id = await operation('deliveries', [[desk, 8]]);
    const todo = await act('deliveries', id, 'todo');
    assert.is(todo.data.state, 'assigned', 'direct shipping: ready with what is there');
    const move = await app.knex('inventories_moves').where('operation_id', id).first('state', 'reserved_quantity');
    assert.equal([move.state, Number(move.reserved_quantity)], ['partially_available', 5]);
    assert.is(await reserved(desk), 5);
    const refused = await act('deliveries', id, 'validate', 422);
    const location = await app.knex('inventories_locations').where('id', ids.stock).first('full_name');
    assert.match(refused.message, new RegExp(`^Not enough "Desk ${target.name} \\d+" at ${location.full_name}: 5 available, 8 needed\\.$`));
    assert.is(await onHand(desk), 5, 'nothing left the stock');
    assert.is((await app.knex('inventories_operations').where('id', id).first('state')).state, 'assigned');

    await receive(desk, 3);
    const checked = await act('deliveries', id, 'check-availability');
    assert.is(checked.message, 'Delivery availability checked successfully.');
    assert.is((await app.knex('inventories_moves').where('operation_id', id).first('state')).state, 'assigned');
    assert.is(await reserved(desk), 8);
    await act('deliveries', id, 'validate');
    assert.equal([await onHand(desk), await reserved(desk)], [0, 0]);
  });

  test('a delivery of part of the demand: the quantity set on the move is what leaves', async () => {
    const lamp = await product('Lamp');
    await receive(lamp, 10);
    const id = await operation('deliveries', [[lamp, 6]]);
    await act('deliveries', id, 'todo');
    const move = await app.knex('inventories_moves').where('operation_id', id).first('id');
    const updated = await app.client.put(`${API}/inventories/deliveries/${id}`, {
      token: app.token,
      body: { moves: [{ id: move.id, product_id: lamp, product_uom_qty: 6, quantity: 2 }] },
    });
    assert.is(updated.status, 200, updated.text);
    await act('deliveries', id, 'validate');
    assert.equal([await onHand(lamp), await reserved(lamp)], [8, 0]);
  });

  test('cancel releases reservations; a canceled operation cannot be validated', async () => {
    const stool = await product('Stool');
    await receive(stool, 4);
    const id = await operation('deliveries', [[stool, 3]]);
    await act('deliveries', id, 'todo');
    assert.is(await reserved(stool), 3);
    const canceled = await act('deliveries', id, 'cancel');
    assert.equal([canceled.message, canceled.data.state], ['Delivery canceled successfully.', 'cancel']);
    assert.equal([await onHand(stool), await reserved(stool)], [4, 0]);
    await act('deliveries', id, 'validate', 422);
  });

  test('an internal transfer moves stock between internal locations; a dropship never touches stock', async () => {
    const shelf = await post('/inventories/locations', { name: `Shelf ${target.name}`, type: 'internal', parent_id: ids.stock });
    assert.is(shelf.status, 201, shelf.text);
    const crate = await product('Crate');
    await receive(crate, 7);
    const transfer = await operation('internal-transfers', [[crate, 5]], { source_location_id: ids.stock, destination_location_id: shelf.body.data.id });
    await act('internal-transfers', transfer, 'todo');
    await act('internal-transfers', transfer, 'validate');
    assert.equal([await onHand(crate), await onHand(crate, shelf.body.data.id)], [2, 5]);
    const listed = await get(`/inventories/quantities?filter[product_id]=${crate}&sort=location_id`);
    assert.equal(
      listed.body.data.map((row: any) => [row.location_id, row.quantity]),
      [
        [ids.stock, 2],
        [shelf.body.data.id, 5],
      ],
    );

    const dropship = await operation('dropships', [[crate, 9]]);
    await act('dropships', dropship, 'todo');
    await act('dropships', dropship, 'validate');
    assert.equal([await onHand(crate), await onHand(crate, shelf.body.data.id)], [2, 5], 'vendor to customer: no stock here');
  });

  test('a return sends back what was done (or what the body says), linked to its origin', async () => {
    const box = await product('Box');
    const receipt = await operation('receipts', [[box, 6]]);
    await act('receipts', receipt, 'todo');
    await act('receipts', receipt, 'validate');
    const move = await app.knex('inventories_moves').where('operation_id', receipt).first('id');
    const response = await post(`/inventories/receipts/${receipt}/return?include=return,moves`, { moves: [{ id: move.id, quantity: 2 }] });
    assert.is(response.status, 200, response.text);
    const back = response.body.data;
    assert.is(response.body.message, 'Receipt return created successfully.');
    assert.match(back.name, /^WH\/OUT\/\d{5}$/, 'a receipt is returned by a delivery');
    assert.equal([back.return_id, back.return.id, back.state], [receipt, receipt, 'assigned']);
    assert.equal(
      back.moves.map((m: any) => [m.product_uom_qty, m.origin_returned_move_id, m.source_location_id, m.destination_location_id]),
      [[2, move.id, ids.stock, ids.vendors]],
    );
    await act('deliveries', back.id, 'validate');
    assert.is(await onHand(box), 4);
    const tooMany = await post(`/inventories/receipts/${receipt}/return`, { moves: [{ id: move.id, quantity: 7 }] });
    assert.is(tooMany.status, 422);
    assert.equal(Object.keys(tooMany.body.errors), ['moves.0.quantity']);
  });

  test('an inventory count is applied as a done move from the adjustment location; clear drops a count', async () => {
    const vase = await product('Vase');
    await receive(vase, 3);
    const counted = await post('/inventories/quantities', { product_id: vase, location_id: ids.stock, counted_quantity: 5 });
    assert.is(counted.status, 201, counted.text);
    assert.is(counted.body.message, 'Quantity counted successfully.');
    assert.equal([counted.body.data.quantity, counted.body.data.counted_quantity], [3, 5], 'the existing row took the count');
    const applied = await post(`/inventories/quantities/${counted.body.data.id}/apply`);
    assert.equal([applied.body.message, applied.body.data.quantity, applied.body.data.counted_quantity], ['Quantity applied successfully.', 5, null]);
    const adjustment = await app.knex('inventories_moves').where({ product_id: vase, is_inventory: true }).first('state', 'quantity', 'destination_location_id', 'operation_id');
    assert.equal([adjustment.state, Number(adjustment.quantity), adjustment.destination_location_id, adjustment.operation_id], ['done', 2, ids.stock, null]);
    assert.equal((await post(`/inventories/quantities/${counted.body.data.id}/apply`)).body, { message: 'Set a counted quantity before applying it.' });
    await app.client.put(`${API}/inventories/quantities/${counted.body.data.id}`, { token: app.token, body: { counted_quantity: 1 } });
    const cleared = await post(`/inventories/quantities/${counted.body.data.id}/clear`);
    assert.equal([cleared.body.data.counted_quantity, cleared.body.data.quantity], [null, 5]);
    const outside = await post('/inventories/quantities', { product_id: vase, location_id: ids.customers, counted_quantity: 1 });
    assert.equal(outside.body.errors, { location_id: ['The selected location id is invalid.'] }, 'only internal locations hold stock');
  });

  test('a receipt that would take a location past what a quantity column holds is refused, changing nothing', async () => {
    const sand = await product('Sand');
    await receive(sand, 99999999999);
    const id = await operation('receipts', [[sand, 99999999999]]);
    const refused = await act('receipts', id, 'validate', 422);
    assert.match(refused.message, /cannot hold more than 99999999999\.9999 of "Sand/);
    assert.is(await onHand(sand), 99999999999);
  });

  test('two deliveries that together need more than is on hand, validated at once: one wins, stock never negative', async () => {
    const bolt = await product('Bolt');
    await receive(bolt, 10);
    const first = await operation('deliveries', [[bolt, 6]]);
    const second = await operation('deliveries', [[bolt, 6]]);
    const results = await Promise.all([post(`/inventories/deliveries/${first}/validate`), post(`/inventories/deliveries/${second}/validate`)]);
    assert.equal(results.map((r) => r.status).sort(), [200, 422], results.map((r) => r.text).join(' | '));
    assert.is(await onHand(bolt), 4);
  });

  test('after a random sequence of operations, the ledger equals the done moves and nothing is overdrawn', async () => {
    const products = [await product('Nut'), await product('Washer')];
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let step = 0; step < 30; step++) {
      const item = products[random(2)]!;
      const quantity = 1 + random(6);
      switch (random(5)) {
        case 0:
        case 1:
          await receive(item, quantity);
          break;
        case 2: {
          const id = await operation('deliveries', [[item, quantity]]);
          await act('deliveries', id, 'todo');
          const result = await post(`/inventories/deliveries/${id}/validate`);
          assert.ok([200, 422].includes(result.status), result.text);
          if (result.status === 422) await act('deliveries', id, 'cancel');
          else if (random(2) === 0) {
            const back = await act('deliveries', id, 'return');
            await act('receipts', back.data.id, 'validate');
          }
          break;
        }
        case 3: {
          const id = await operation('deliveries', [[item, quantity]]);
          await act('deliveries', id, 'todo');
          if (random(2) === 0) await act('deliveries', id, 'cancel');
          break;
        }
        case 4: {
          const row = await post('/inventories/quantities', { product_id: item, location_id: ids.stock, counted_quantity: random(20) });
          const applied = await post(`/inventories/quantities/${row.body.data.id}/apply`);
          assert.ok([200, 422].includes(applied.status), applied.text);
          if (applied.status === 422) await post(`/inventories/quantities/${row.body.data.id}/clear`);
          break;
        }
      }
    }
    for (const item of products) {
      const moves = await app.knex('inventories_moves').where({ product_id: item, state: 'done' }).select('quantity', 'source_location_id', 'destination_location_id');
      const expected = moves.reduce(
        (sum, m) => sum + (m.destination_location_id === ids.stock ? 1 : 0) * Number(m.quantity) - (m.source_location_id === ids.stock ? 1 : 0) * Number(m.quantity),
        0,
      );
      assert.is(await onHand(item), expected, `product ${item}: on hand equals done moves in minus out`);
      assert.ok((await onHand(item)) >= 0, 'never negative');
      const open = await app
        .knex('inventories_moves')
        .where({ product_id: item, source_location_id: ids.stock })
        .whereNotIn('state', ['done', 'cancel'])
        .sum({ r: 'reserved_quantity' })
        .first();
      assert.is(await reserved(item), Number(open!.r ?? 0), 'reserved equals what open moves hold');
      assert.ok((await reserved(item)) <= (await onHand(item)), 'reserved never exceeds on hand');
    }
  });

  test.run();
}
