// Sales orders through their states: confirm creates the delivery of the stocked lines, the
// delivery's validation (and returns) set the lines' delivered quantity, cancel is refused once
// goods left, and a locked order cannot be changed. More than the guides show (docs/stock.md,
// docs/order-to-cash.md): returns, cancel and set-as-quotation, the lock.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`sales order workflow [${target.name}]`);
  let app: TestApp & { token: string };
  const ids: Record<string, number> = {};
  const post = (path: string, body?: unknown) => app.client.post(`${API}${path}`, { token: app.token, body });
  const get = (path: string) => app.client.get(`${API}${path}`, { token: app.token });
  const onHand = async (product: number) => (await get(`/inventories/products/${product}`)).body.data.on_hand_quantity as number;
  const order = async (lines: Array<[number, number]>) => {
    const response = await post('/sales/orders', {
      partner_id: ids.partner,
      payment_term_id: ids.term,
      date_order: '2026-11-23',
      lines: lines.map(([product_id, product_qty]) => ({ product_id, product_qty, price_unit: 100 })),
    });
    assert.is(response.status, 201, response.text);
    return response.body.data.id as number;
  };

  test.before(async () => {
    app = await sharedApp(target);
    const category = (await app.knex('products_categories').orderBy('id').first('id')).id;
    const product = async (name: string, type: string) =>
      (await post('/inventories/products', { type, name: `${name} ${target.name}`, price: 100, category_id: category })).body.data.id as number;
    ids.chair = await product('Workflow chair', 'goods');
    ids.service = await product('Assembly', 'service');
    ids.partner = (await post('/partners/partners', { account_type: 'company', name: `Workflow customer ${target.name}` })).body.data.id;
    ids.term = (await app.knex('accounts_payment_terms').whereNull('deleted_at').orderBy('id').first('id')).id;
  });

  test('receive 10, sell 4, deliver, return 1: 10 → 6 → 7 on hand, delivered 4 → 3', async () => {
    const receipt = await post('/inventories/receipts', { moves: [{ product_id: ids.chair, product_uom_qty: 10 }] });
    assert.is((await post(`/inventories/receipts/${receipt.body.data.id}/todo`)).status, 200);
    assert.is((await post(`/inventories/receipts/${receipt.body.data.id}/validate`)).status, 200);
    assert.is(await onHand(ids.chair!), 10);

    const id = await order([
      [ids.chair!, 4],
      [ids.service!, 1],
    ]);
    const confirmed = await post(`/sales/orders/${id}/confirm?include=deliveries.moves`);
    assert.is(confirmed.status, 200, confirmed.text);
    assert.is(confirmed.body.message, 'Order confirmed successfully.');
    assert.equal([confirmed.body.data.state, confirmed.body.data.invoice_status], ['sale', 'to_invoice']);
    const [delivery] = confirmed.body.data.deliveries;
    assert.match(delivery.name, /^WH\/OUT\/\d{5}$/);
    assert.equal([delivery.origin, delivery.sale_order_id, delivery.state], [confirmed.body.data.name, id, 'assigned']);
    assert.equal(
      delivery.moves.map((m: any) => [m.product_id, m.product_uom_qty]),
      [[ids.chair, 4]],
      'the service line is not delivered',
    );
    assert.is((await get(`/inventories/products/${ids.chair}`)).body.data.reserved_quantity, 4);

    assert.is((await post(`/inventories/deliveries/${delivery.id}/validate`)).status, 200);
    assert.is(await onHand(ids.chair!), 6);
    const lines = async () => (await get(`/sales/orders/${id}?include=lines`)).body.data.lines.map((l: any) => l.qty_delivered);
    assert.equal(await lines(), [4, 0]);

    const returned = await post(`/inventories/deliveries/${delivery.id}/return`, { moves: [{ id: delivery.moves[0].id, quantity: 1 }] });
    assert.is(returned.status, 200, returned.text);
    assert.is((await post(`/inventories/receipts/${returned.body.data.id}/validate`)).status, 200);
    assert.is(await onHand(ids.chair!), 7);
    assert.equal(await lines(), [3, 0]);

    const cancel = await post(`/sales/orders/${id}/cancel`);
    assert.is(cancel.status, 422);
    assert.match(cancel.body.message, /^The order cannot be canceled: its delivery WH\/OUT\/\d{5} is done\./);
  });

  test('cancel cancels the open delivery and its reservation; set-as-quotation brings the order back', async () => {
    const id = await order([[ids.chair!, 2]]);
    await post(`/sales/orders/${id}/confirm`);
    const delivery = await app.knex('inventories_operations').where('sale_order_id', id).first('id');
    const reservedBefore = (await get(`/inventories/products/${ids.chair}`)).body.data.reserved_quantity;
    const canceled = await post(`/sales/orders/${id}/cancel`);
    assert.equal([canceled.status, canceled.body.message, canceled.body.data.state], [200, 'Order canceled successfully.', 'cancel']);
    assert.is((await app.knex('inventories_operations').where('id', delivery.id).first('state')).state, 'cancel');
    assert.is((await get(`/inventories/products/${ids.chair}`)).body.data.reserved_quantity, reservedBefore - 2);
    assert.equal((await post(`/sales/orders/${id}/confirm`)).body, { message: 'Only draft or sent orders can be confirmed.' });
    const quotation = await post(`/sales/orders/${id}/set-as-quotation`);
    assert.equal([quotation.body.message, quotation.body.data.state], ['Order set as quotation successfully.', 'draft']);
    assert.equal((await post(`/sales/orders/${id}/set-as-quotation`)).body, { message: 'Only canceled orders can be set as quotation.' });
  });

  test('a locked order cannot be updated until it is unlocked', async () => {
    const id = await order([[ids.chair!, 1]]);
    assert.equal((await post(`/sales/orders/${id}/toggle-lock`)).body, { message: 'Only sale orders can toggle lock state.' });
    await post(`/sales/orders/${id}/confirm`);
    const locked = await post(`/sales/orders/${id}/toggle-lock`);
    assert.equal([locked.body.message, locked.body.data.locked], ['Order lock state updated successfully.', true]);
    const refused = await app.client.put(`${API}/sales/orders/${id}`, { token: app.token, body: { note: 'changed' } });
    assert.equal([refused.status, refused.body], [422, { message: 'A locked order cannot be changed. Unlock it first (toggle-lock).' }]);
    await post(`/sales/orders/${id}/toggle-lock`);
    assert.is((await app.client.put(`${API}/sales/orders/${id}`, { token: app.token, body: { note: 'changed' } })).status, 200);
  });

  test.run();
}
