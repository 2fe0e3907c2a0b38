// Purchase orders through their states: confirm makes a receipt from the vendors to the
// warehouse stock, validating it through the inventories API brings the stock and sets the
// lines' received quantities and the order's statuses; cancel, draft, lock and the receipt date
// keep their guards; lines without a price are priced from the vendor price lists; agreements
// move from draft to closed, and one an order follows cannot be deleted for good.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`purchase workflow [${target.name}]`);
  let app: TestApp & { token: string };
  const ids: Record<string, number> = {};
  const post = (path: string, body?: unknown) => app.client.post(`${API}${path}`, { token: app.token, body });
  const put = (path: string, body: unknown) => app.client.put(`${API}${path}`, { token: app.token, body });
  const get = (path: string) => app.client.get(`${API}${path}`, { token: app.token });
  const onHand = async (product: number) => (await get(`/inventories/products/${product}`)).body.data.on_hand_quantity as number;
  const orderBody = (lines: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) => ({
    partner_id: ids.vendor,
    currency_id: ids.currency,
    company_id: ids.company,
    ordered_at: '2026-11-23T09:00:00Z',
    lines,
    ...extra,
  });
  const createOrder = async (lines: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) => {
    const response = await post('/purchases/purchase-orders?include=lines', orderBody(lines, extra));
    assert.is(response.status, 201, response.text);
    return response.body.data;
  };

  test.before(async () => {
    app = await sharedApp(target);
    const category = (await app.knex('products_categories').orderBy('id').first('id')).id;
    const product = async (name: string, type: string) =>
      (await post('/inventories/products', { type, name: `${name} ${target.name}`, price: 100, cost: 30, category_id: category })).body.data.id as number;
    ids.desk = await product('Purchased desk', 'goods');
    ids.lamp = await product('Purchased lamp', 'goods');
    ids.service = await product('Installation', 'service');
    ids.vendor = (await post('/partners/partners', { account_type: 'company', name: `Vendor ${target.name}` })).body.data.id;
    const company = await app.knex('companies').orderBy('id').first('id', 'currency_id');
    ids.company = company.id;
    ids.currency = company.currency_id;
    ids.tax = (await post('/accounts/taxes', { name: `Purchase VAT ${target.name}`, type_tax_use: 'purchase', amount_type: 'percent', amount: 10 })).body.data.id;
  });

  test('create: PO/ number, draft, amounts with taxes kept with 4 decimals', async () => {
    const order = await createOrder([
      { product_id: ids.desk, product_qty: 3, price_unit: 12.3456, taxes: [ids.tax] },
      { product_id: ids.service, product_qty: 1, price_unit: 50, discount: 10 },
    ]);
    assert.match(order.name, /^PO\/\d{5}$/);
    assert.equal([order.state, order.invoice_status, order.receipt_status], ['draft', 'no', 'no']);
    const [desk, service] = order.lines;
    assert.equal([desk.price_unit, desk.price_subtotal, desk.price_tax, desk.price_total], [12.3456, 37.04, 3.7, 40.74]);
    assert.equal([service.price_subtotal, service.price_total], [45, 45]);
    assert.equal([order.untaxed_amount, order.tax_amount, order.total_amount], [82.04, 3.7, 85.74]);
    assert.is(Number((await app.knex('purchases_order_lines').where('id', desk.id).first('price_unit')).price_unit), 12.3456, 'stored with 4 decimals');
  });

  test('confirm → receipt → validate: stock up, lines received, order to bill', async () => {
    const before = await onHand(ids.desk!);
    const order = await createOrder([
      { product_id: ids.desk, product_qty: 4, price_unit: 100 },
      { product_id: ids.lamp, product_qty: 2, price_unit: 20 },
      { product_id: ids.service, product_qty: 1, price_unit: 50 },
    ]);
    const confirmed = await post(`/purchases/purchase-orders/${order.id}/confirm`);
    assert.is(confirmed.status, 200, confirmed.text);
    assert.is(confirmed.body.message, 'Purchase order confirmed successfully.');
    // The installation (a service) is billed on the quantity ordered: there is something to bill at once.
    assert.equal([confirmed.body.data.state, confirmed.body.data.receipt_status, confirmed.body.data.invoice_status], ['purchase', 'pending', 'to_invoiced']);
    assert.ok(confirmed.body.data.approved_at);

    const receipts = await get(`/purchases/purchase-orders/${order.id}/receipts?include=moves`);
    assert.is(receipts.status, 200, receipts.text);
    assert.is(receipts.body.meta.total, 1);
    const [receipt] = receipts.body.data;
    assert.match(receipt.name, /^WH\/IN\/\d{5}$/);
    assert.equal([receipt.origin, receipt.purchase_order_id, receipt.partner_id, receipt.state], [order.name, order.id, ids.vendor, 'assigned']);
    assert.equal(
      receipt.moves.map((move: any) => [move.product_id, move.product_uom_qty, move.purchase_order_line_id]),
      [
        [ids.desk, 4, order.lines[0].id],
        [ids.lamp, 2, order.lines[1].id],
      ],
      'one move per goods line; the service is not received',
    );
    const vendors = await app.knex('inventories_locations').where('id', receipt.source_location_id).first('type');
    const stock = await app.knex('inventories_locations').where('id', receipt.destination_location_id).first('type', 'full_name');
    assert.equal([vendors.type, stock.type, stock.full_name], ['supplier', 'internal', 'WH/Stock']);

    const validated = await post(`/inventories/receipts/${receipt.id}/validate`);
    assert.is(validated.status, 200, validated.text);
    assert.is(await onHand(ids.desk!), before + 4);
    const after = (await get(`/purchases/purchase-orders/${order.id}?include=lines`)).body.data;
    assert.equal([after.receipt_status, after.invoice_status], ['full', 'to_invoiced']);
    assert.ok(after.effective_date, 'the date the goods arrived');
    assert.equal(
      after.lines.map((line: any) => [line.qty_received, line.qty_invoiced, line.qty_to_invoice]),
      [
        [4, 0, 4],
        [2, 0, 2],
        [0, 0, 1],
      ],
    );
    const line = await get(`/purchases/purchase-orders/${order.id}/lines/${order.lines[0].id}`);
    assert.equal([line.status, line.body.data.qty_received], [200, 4]);

    // Once goods came in, the order cannot be canceled, nor its lines changed.
    assert.equal((await post(`/purchases/purchase-orders/${order.id}/cancel`)).body, { message: 'The order cannot be canceled since they have receipts that are already done.' });
    const changed = await put(`/purchases/purchase-orders/${order.id}`, { lines: [{ product_id: ids.desk, product_qty: 9, price_unit: 100 }] });
    assert.equal(
      [changed.status, changed.body.message],
      [422, 'The lines, vendor, currency and company of a confirmed purchase order cannot be changed. Cancel it and set it to draft first.'],
    );
    assert.is((await app.knex('purchases_order_lines').where('order_id', order.id)).length, 3, 'nothing written');
    const described = await put(`/purchases/purchase-orders/${order.id}`, { description: 'Delivered on time' });
    assert.is(described.status, 200, described.text);

    // Deleting the order of a done receipt is a conflict, not a server error.
    const deleted = await app.client.delete(`${API}/purchases/purchase-orders/${order.id}`, { token: app.token });
    assert.is(deleted.status, 409, deleted.text);
  });

  test('a partial receipt and a return: partial, then the returned quantity is no longer received', async () => {
    const order = await createOrder([{ product_id: ids.lamp, product_qty: 5, price_unit: 20 }]);
    await post(`/purchases/purchase-orders/${order.id}/confirm`);
    const receipt = await app.knex('inventories_operations').where('purchase_order_id', order.id).first('id');
    assert.is((await post(`/inventories/receipts/${receipt.id}/validate`)).status, 200);
    const returned = await post(`/inventories/receipts/${receipt.id}/return`, {
      moves: [{ id: (await app.knex('inventories_moves').where('operation_id', receipt.id).first('id')).id, quantity: 2 }],
    });
    assert.is(returned.status, 200, returned.text);
    assert.is((await get(`/purchases/purchase-orders/${order.id}`)).body.data.receipt_status, 'partial', 'the return is under way');
    assert.is((await post(`/inventories/deliveries/${returned.body.data.id}/validate`)).status, 200);
    const after = (await get(`/purchases/purchase-orders/${order.id}?include=lines`)).body.data;
    assert.equal([after.receipt_status, after.lines[0].qty_received, after.lines[0].qty_to_invoice], ['full', 3, 3]);
    assert.is((await get(`/purchases/purchase-orders/${order.id}/receipts`)).body.meta.total, 2, 'the receipt and its return');
  });

  test('cancel cancels the open receipt; draft, toggle-lock and confirm-receipt-date guard their states', async () => {
    const order = await createOrder([{ product_id: ids.desk, product_qty: 1, price_unit: 10 }]);
    const path = `/purchases/purchase-orders/${order.id}`;
    assert.equal((await post(`${path}/toggle-lock`)).body, { message: 'Only purchase or done orders can toggle lock state.' });
    assert.equal((await post(`${path}/draft`)).body, { message: 'Only canceled purchase orders can be set to draft.' });
    assert.equal((await post(`${path}/confirm-receipt-date`)).body, { message: 'Only unconfirmed purchase or done orders can confirm receipt date.' });
    await post(`${path}/confirm`);
    assert.equal((await post(`${path}/confirm`)).body, { message: 'Only draft or sent purchase orders can be confirmed.' });

    const dated = await post(`${path}/confirm-receipt-date`);
    assert.equal([dated.body.message, dated.body.data.mail_reminder_confirmed], ['Purchase order receipt date confirmed successfully.', true]);
    assert.equal((await post(`${path}/confirm-receipt-date`)).body, { message: 'Only unconfirmed purchase or done orders can confirm receipt date.' });

    const locked = await post(`${path}/toggle-lock`);
    assert.equal([locked.body.message, locked.body.data.state], ['Purchase order lock state updated successfully.', 'done']);
    assert.equal((await post(`${path}/cancel`)).body, { message: 'Only non-locked and non-canceled purchase orders can be canceled.' });
    assert.is((await post(`${path}/toggle-lock`)).body.data.state, 'purchase');

    const receipt = await app.knex('inventories_operations').where('purchase_order_id', order.id).first('id');
    const refusedDelete = await app.client.delete(`${API}/inventories/receipts/${receipt.id}`, { token: app.token });
    assert.equal([refusedDelete.status, refusedDelete.body.message], [422, 'An operation of a purchase order cannot be deleted: cancel it (or the order) first.']);

    const canceled = await post(`${path}/cancel`);
    assert.equal(
      [canceled.status, canceled.body.message, canceled.body.data.state, canceled.body.data.receipt_status],
      [200, 'Purchase order canceled successfully.', 'canceled', 'no'],
    );
    assert.is((await app.knex('inventories_operations').where('id', receipt.id).first('state')).state, 'cancel');
    assert.equal((await post(`${path}/cancel`)).body, { message: 'Only non-locked and non-canceled purchase orders can be canceled.' });

    const drafted = await post(`${path}/draft`);
    assert.equal([drafted.body.message, drafted.body.data.state], ['Purchase order set to draft successfully.', 'draft']);
    // A draft again: its lines may change, and confirming makes a new receipt.
    assert.is((await put(path, { lines: [{ product_id: ids.desk, product_qty: 2, price_unit: 10 }] })).status, 200);
    await post(`${path}/confirm`);
    assert.equal(
      (await get(`${path}/receipts?sort=id`)).body.data.map((r: any) => r.state),
      ['cancel', 'assigned'],
    );
  });

  test('lines without a price take the best vendor price list', async () => {
    const price = async (body: Record<string, unknown>) => {
      const response = await post('/purchases/vendor-price-lists', { partner_id: ids.vendor, product_id: ids.lamp, currency_id: ids.currency, ...body });
      assert.is(response.status, 201, response.text);
      return response.body.data;
    };
    const shared = await price({ price: 9, company_id: null });
    assert.is(shared.company_id, null, 'no company: for every company');
    const own = await price({ price: 11, discount: 5 });
    assert.is(own.company_id, ids.company, "the product's company by default");
    await price({ price: 8, min_qty: 10 });
    await price({ price: 1, starts_at: '2020-01-01', ends_at: '2020-12-31' });

    const order = await createOrder([
      { product_id: ids.lamp, product_qty: 2 },
      { product_id: ids.lamp, product_qty: 10 },
      { product_id: ids.lamp, product_qty: 2, price_unit: 50 },
      { product_id: ids.desk, product_qty: 1 },
    ]);
    assert.equal(
      order.lines.map((line: any) => [line.price_unit, line.discount]),
      [
        [11, 5],
        [8, 0],
        [50, 0],
        [30, 0],
      ],
      "the company's own price before the shared one; from 10, the cheaper one; a price sent is kept; without a price list, the cost",
    );

    const over = await post('/purchases/vendor-price-lists', { partner_id: ids.vendor, product_id: ids.lamp, currency_id: ids.currency, price: 5, discount: 120 });
    assert.equal([over.status, over.body.errors], [422, { discount: ['The discount field must not be greater than 100.'] }]);
    const dates = await post('/purchases/vendor-price-lists', {
      partner_id: ids.vendor,
      product_id: ids.lamp,
      currency_id: ids.currency,
      starts_at: '2026-02-01',
      ends_at: '2026-01-01',
    });
    assert.equal([dates.status, dates.body.errors], [422, { ends_at: ['The ends at field must be a date after or equal to starts at.'] }]);
  });

  test('agreements: BO/<id>, draft → confirmed → closed; force-deleting one an order follows is a 409', async () => {
    const created = await post('/purchases/purchase-agreements?include=lines', {
      type: 'blanket_order',
      partner_id: ids.vendor,
      currency_id: ids.currency,
      company_id: ids.company,
      starts_at: '2026-01-01',
      lines: [{ product_id: ids.desk, qty: 100, price_unit: 40 }],
    });
    assert.is(created.status, 201, created.text);
    const agreement = created.body.data;
    assert.equal([agreement.name, agreement.state, agreement.lines[0].uom_id !== null], [`BO/${agreement.id}`, 'draft', true]);
    const path = `/purchases/purchase-agreements/${agreement.id}`;
    assert.equal((await post(`${path}/close`)).body, { message: 'Only confirmed purchase agreements can be closed.' });
    assert.is((await post(`${path}/confirm`)).body.data.state, 'confirmed');
    assert.equal((await post(`${path}/confirm`)).body, { message: 'Only draft purchase agreements can be confirmed.' });
    const lines = await get(`${path}/lines`);
    assert.equal([lines.status, lines.body.data.map((line: any) => line.qty)], [200, [100]]);

    const blanketWithoutStart = await post('/purchases/purchase-agreements', {
      type: 'blanket_order',
      partner_id: ids.vendor,
      currency_id: ids.currency,
      company_id: ids.company,
      lines: [{ product_id: ids.desk, qty: 1, price_unit: 1 }],
    });
    assert.equal(blanketWithoutStart.body.errors, { starts_at: ['The starts at field is required when agreement type is blanket order.'] });

    await createOrder([{ product_id: ids.desk, product_qty: 1, price_unit: 40 }], { requisition_id: agreement.id });
    assert.is((await post(`${path}/close`)).body.data.state, 'closed');
    assert.equal((await post(`${path}/cancel`)).body, { message: 'Only draft or confirmed purchase agreements can be canceled.' });
    assert.is((await app.client.delete(`${API}${path}`, { token: app.token })).status, 200);
    const forced = await app.client.delete(`${API}${path}/force`, { token: app.token });
    assert.is(forced.status, 409, forced.text);
    assert.ok(await app.knex('purchases_requisitions').where('id', agreement.id).first(), 'still there');

    const template = await post('/purchases/purchase-agreements', {
      type: 'purchase_template',
      partner_id: ids.vendor,
      currency_id: ids.currency,
      company_id: ids.company,
      lines: [{ product_id: ids.lamp, qty: 1, price_unit: 1 }],
    });
    assert.is(template.body.data.name, `PT/${template.body.data.id}`);
    assert.is((await app.client.delete(`${API}/purchases/purchase-agreements/${template.body.data.id}/force`, { token: app.token })).status, 200);
  });

  test.run();
}
