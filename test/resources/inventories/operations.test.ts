// Receipts, internal transfers and dropships: the operation type a resource defaults to, the
// locations it brings, names from its sequence (also under concurrency), moves written with the
// operation, and nothing written when a move is wrong.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`stock operations [${target.name}]`);
  let app: TestApp & { token: string };
  const ids: Record<string, number> = {};
  const post = (path: string, body: unknown) => app.client.post(`${API}${path}`, { token: app.token, body });
  const typeOf = (type: string) => app.knex('inventories_operation_types').where('type', type).whereNull('deleted_at').orderBy('sort').orderBy('id').first();

  test.before(async () => {
    app = await sharedApp(target);
    const uom = (name: string) => app.knex('unit_of_measures').where('name', name).first('id');
    ids.kg = (await uom('kg')).id;
    ids.g = (await uom('g')).id;
    const category = await app.knex('products_categories').orderBy('id').first('id');
    const flour = await post('/inventories/products', { type: 'goods', name: `Flour ${target.name}`, price: 2, category_id: category.id, uom_id: ids.kg, is_storable: true });
    assert.is(flour.status, 201, flour.text);
    ids.flour = flour.body.data.id;
  });

  test('a receipt without an operation type takes the incoming one, its locations, a WH/IN name and draft', async () => {
    const incoming = await typeOf('incoming');
    const response = await post('/inventories/receipts?include=operationType,moves', {
      origin: 'PO-1',
      moves: [
        { product_id: ids.flour, product_uom_qty: 1500, uom_id: ids.g },
        { product_id: ids.flour, product_uom_qty: 2 },
      ],
    });
    assert.is(response.status, 201, response.text);
    assert.is(response.body.message, 'Receipt created successfully.');
    const data = response.body.data;
    assert.match(data.name, /^WH\/IN\/\d{5}$/);
    assert.is(data.state, 'draft');
    assert.is(data.operation_type.id, incoming.id);
    assert.is(data.source_location_id, incoming.source_location_id);
    assert.is(data.destination_location_id, incoming.destination_location_id);
    const [grams, kilos] = data.moves;
    assert.is(grams.product_uom_qty, 1500);
    assert.is(grams.product_qty, 1.5, '1500 g is 1.5 kg, the product unit');
    assert.is(kilos.uom_id, ids.kg, 'a move without a unit counts in the product unit');
    assert.is(kilos.product_qty, 2);
    assert.is(grams.reference, data.name);
    assert.is(grams.state, 'draft');
    assert.is(grams.source_location_id, incoming.source_location_id);
  });

  test('internal transfers and dropships default to their own types; a type of another kind is refused', async () => {
    for (const [path, type, label] of [
      ['/inventories/internal-transfers', 'internal', 'Internal transfer'],
      ['/inventories/dropships', 'dropship', 'Dropship'],
    ] as const) {
      const expected = await typeOf(type);
      assert.ok(expected, `a fresh installation has a live ${type} operation type`);
      const response = await post(path, { moves: [{ product_id: ids.flour, product_uom_qty: 1 }] });
      assert.is(response.status, 201, response.text);
      assert.is(response.body.message, `${label} created successfully.`);
      assert.is(response.body.data.operation_type_id, expected.id);
    }
    const incoming = await typeOf('incoming');
    const wrong = await post('/inventories/dropships', { operation_type_id: incoming.id });
    assert.is(wrong.status, 422);
    assert.ok(wrong.body.errors.operation_type_id, wrong.text);
    const receipt = await post('/inventories/receipts', {});
    const elsewhere = await app.client.get(`${API}/inventories/dropships/${receipt.body.data.id}`, { token: app.token });
    assert.is(elsewhere.status, 404, 'a receipt is not a dropship');
  });

  test('names are gap-free and unique when receipts are created at once', async () => {
    const responses = await Promise.all(Array.from({ length: 6 }, () => post('/inventories/receipts', { moves: [{ product_id: ids.flour, product_uom_qty: 1 }] })));
    for (const response of responses) assert.is(response.status, 201, response.text);
    const numbers = responses.map((response) => Number(response.body.data.name.split('/').pop())).sort((a, b) => a - b);
    for (let i = 1; i < numbers.length; i++) assert.is(numbers[i], numbers[0]! + i, `consecutive: ${numbers}`);
  });

  test('a wrong move writes neither the operation nor its moves, and uses no number', async () => {
    const before = await app.knex('inventories_operations').count({ count: '*' }).first();
    const beforeMoves = await app.knex('inventories_moves').count({ count: '*' }).first();
    const last = await post('/inventories/receipts', {});
    const response = await post('/inventories/receipts', {
      moves: [
        { product_id: ids.flour, product_uom_qty: 1 },
        { product_id: 99999999, product_uom_qty: 100000000000 },
      ],
    });
    assert.is(response.status, 422);
    assert.equal(response.body.errors, {
      'moves.1.product_id': ['The selected moves.1.product id is invalid.'],
      'moves.1.product_uom_qty': ['The moves.1.product uom qty field must not be greater than 99999999999.'],
    });
    assert.is(Number((await app.knex('inventories_operations').count({ count: '*' }).first())!.count), Number(before!.count) + 1);
    assert.is(Number((await app.knex('inventories_moves').count({ count: '*' }).first())!.count), Number(beforeMoves!.count));
    const next = await post('/inventories/receipts', {});
    assert.is(Number(next.body.data.name.split('/').pop()), Number(last.body.data.name.split('/').pop()) + 1);
  });

  test('a move refused while it is written rolls back the operation and the moves before it', async () => {
    const category = await app.knex('products_categories').orderBy('id').first('id');
    const service = await post('/inventories/products', { type: 'service', name: `Installation ${target.name}`, price: 50, category_id: category.id });
    const before = await app.knex('inventories_operations').count({ count: '*' }).first();
    const beforeMoves = await app.knex('inventories_moves').count({ count: '*' }).first();
    const last = await post('/inventories/receipts', {});
    // Both moves pass validation; the second is refused by its behaviour after the receipt and
    // the first move were written, inside the same transaction.
    const response = await post('/inventories/receipts', {
      moves: [
        { product_id: ids.flour, product_uom_qty: 1 },
        { product_id: service.body.data.id, product_uom_qty: 1 },
      ],
    });
    assert.is(response.status, 422, response.text);
    assert.equal(response.body.errors, { 'moves.1.product_id': [`The product 'Installation ${target.name}' is a service and cannot be moved in stock.`] });
    assert.is(Number((await app.knex('inventories_operations').count({ count: '*' }).first())!.count), Number(before!.count) + 1, 'only the empty receipt');
    assert.is(Number((await app.knex('inventories_moves').count({ count: '*' }).first())!.count), Number(beforeMoves!.count), 'no move');
    const next = await post('/inventories/receipts', {});
    assert.is(Number(next.body.data.name.split('/').pop()), Number(last.body.data.name.split('/').pop()) + 1, 'the number went back');
  });

  test('update: moves by id are updated, new ones added, left-out ones removed', async () => {
    const created = await post('/inventories/receipts?include=moves', {
      moves: [
        { product_id: ids.flour, product_uom_qty: 1 },
        { product_id: ids.flour, product_uom_qty: 2 },
      ],
    });
    const [first] = created.body.data.moves;
    const updated = await app.client.put(`${API}/inventories/receipts/${created.body.data.id}?include=moves`, {
      token: app.token,
      body: {
        moves: [
          { id: first.id, product_uom_qty: 5 },
          { product_id: ids.flour, product_uom_qty: 250, uom_id: ids.g },
        ],
      },
    });
    assert.is(updated.status, 200, updated.text);
    assert.equal(
      updated.body.data.moves.map((move: any) => [move.id === first.id, move.product_qty]),
      [
        [true, 5],
        [false, 0.25],
      ],
    );
  });

  test('a sequence set back by hand cannot make a name twice: 409, and nothing is written', async () => {
    const created = await post('/inventories/receipts', { moves: [{ product_id: ids.flour, product_uom_qty: 1 }] });
    assert.is(created.status, 201, created.text);
    const code = `inventories.operation_type.${created.body.data.operation_type_id}`;
    const sequence = await app.knex('sequences').where({ code, company_id: created.body.data.company_id }).first('next_number');
    await app
      .knex('sequences')
      .where({ code, company_id: created.body.data.company_id })
      .update({ next_number: Number(sequence.next_number) - 1 });
    const before = Number((await app.knex('inventories_moves').count({ n: '*' }).first())!.n);
    const again = await post('/inventories/receipts', { moves: [{ product_id: ids.flour, product_uom_qty: 1 }] });
    assert.is(again.status, 409, again.text);
    assert.equal(await app.knex('inventories_operations').where('name', created.body.data.name).pluck('id'), [created.body.data.id], "the name stays one document's");
    assert.is(Number((await app.knex('inventories_moves').count({ n: '*' }).first())!.n), before, 'no move written');
    await app
      .knex('sequences')
      .where({ code, company_id: created.body.data.company_id })
      .update({ next_number: Number(sequence.next_number) });
  });

  test.run();
}
