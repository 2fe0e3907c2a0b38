// Procure to pay, as the README walks it: purchase order → confirm → receive (stock up) → bill →
// confirm → pay → order fully billed. Each step checked on what the client reads.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { asAdmin } from '../../helpers/as-admin.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`procure to pay [${target.name}]`);
  let app: TestApp & { token: string };
  const ids: Record<string, number> = {};
  const { post, get } = asAdmin(() => app);

  test.before(async () => {
    app = await sharedApp(target);
    const category = (await app.knex('products_categories').orderBy('id').first('id')).id;
    ids.chair = (await post('/inventories/products', { type: 'goods', name: `P2P chair ${target.name}`, price: 90, cost: 40, category_id: category }, 201)).data.id;
    ids.vendor = (await post('/partners/partners', { account_type: 'company', name: `P2P vendor ${target.name}` }, 201)).data.id;
    ids.currency = (await app.knex('companies').orderBy('id').first('currency_id')).currency_id;
    ids.tax = (await app.knex('accounts_taxes').where('type_tax_use', 'purchase').first('id')).id;
  });

  test('order → confirm → receive → bill → confirm → pay → billed', async () => {
    const onHand = async () => (await get(`/inventories/products/${ids.chair}`)).data.on_hand_quantity as number;
    const before = await onHand();
    const order = (
      await post(
        '/purchases/purchase-orders',
        {
          partner_id: ids.vendor,
          currency_id: ids.currency,
          ordered_at: '2026-11-23T09:00:00Z',
          lines: [{ product_id: ids.chair, product_qty: 6, price_unit: 40, taxes: [ids.tax] }],
        },
        201,
      )
    ).data;
    const confirmed = await post(`/purchases/purchase-orders/${order.id}/confirm`);
    assert.equal([confirmed.data.state, confirmed.data.receipt_status], ['purchase', 'pending']);
    assert.is((await post(`/purchases/purchase-orders/${order.id}/create-bill`, {}, 422)).message, 'There is nothing to bill: every line is billed, or waits for its receipt.');

    const [receipt] = (await get(`/purchases/purchase-orders/${order.id}/receipts`)).data;
    await post(`/inventories/receipts/${receipt.id}/validate`);
    assert.is(await onHand(), before + 6);
    const received = (await get(`/purchases/purchase-orders/${order.id}`)).data;
    assert.equal([received.receipt_status, received.invoice_status], ['full', 'to_invoiced']);

    const bill = (await post(`/purchases/purchase-orders/${order.id}/create-bill?include=invoiceLines`, { invoice_date: '2026-11-25' }, 201)).data;
    assert.equal([bill.move_type, bill.state, bill.purchase_order_id, bill.invoice_origin, bill.amount_total], ['in_invoice', 'draft', order.id, order.name, '276.0000']);
    assert.equal(
      bill.invoice_lines.map((l: any) => [l.product_id, l.quantity]),
      [[ids.chair, '6.0000']],
    );
    const posted = await post(`/accounts/bills/${bill.id}/confirm`);
    assert.match(posted.data.name, /^BILL\/2026\/\d{5}$/);
    const paid = await post(`/accounts/bills/${bill.id}/pay?include=payments`, {});
    assert.equal([paid.data.payment_state, paid.data.amount_residual, paid.data.payments[0].payment_type], ['paid', '0.0000', 'outbound']);

    const billed = (await get(`/purchases/purchase-orders/${order.id}?include=lines`)).data;
    assert.is(billed.invoice_status, 'invoiced');
    assert.equal(
      billed.lines.map((l: any) => [l.qty_received, l.qty_invoiced, l.qty_to_invoice]),
      [[6, 6, 0]],
    );
    assert.equal(
      (await get(`/purchases/purchase-orders/${order.id}/bills`)).data.map((b: any) => [b.id, b.state, b.payment_state]),
      [[bill.id, 'posted', 'paid']],
    );
    const canceled = await app.client.post(`${API}/purchases/purchase-orders/${order.id}/cancel`, { token: app.token });
    assert.is(canceled.status, 422, 'an order with a done receipt or a bill cannot be canceled');
  });

  test.run();
}
