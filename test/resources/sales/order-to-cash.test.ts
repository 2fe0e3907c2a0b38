// Order to cash on the shared installation, beyond what docs/order-to-cash.md shows: quotation →
// confirm → deliver → invoice → confirm → pay half → pay the rest (order invoiced, invoice paid);
// then a credit note by reversing, and a second invoice for an up-sell. Each step checked on what
// the client reads.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { asAdmin } from '../../helpers/as-admin.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`order to cash [${target.name}]`);
  let app: TestApp & { token: string };
  const ids: Record<string, number> = {};
  const { post, get } = asAdmin(() => app);

  test.before(async () => {
    app = await sharedApp(target);
    const category = (await app.knex('products_categories').orderBy('id').first('id')).id;
    ids.desk = (await post('/inventories/products', { type: 'goods', name: `O2C desk ${target.name}`, price: 200, category_id: category }, 201)).data.id;
    ids.setup = (await post('/products/products', { type: 'service', name: `O2C setup ${target.name}`, price: 50, category_id: category }, 201)).data.id;
    ids.customer = (await post('/partners/partners', { account_type: 'company', name: `O2C customer ${target.name}` }, 201)).data.id;
    ids.term = (await app.knex('accounts_payment_terms').where('name', 'Immediate Payment').first('id')).id;
    ids.tax = (await app.knex('accounts_taxes').where('type_tax_use', 'sale').first('id')).id;
    const receipt = await post('/inventories/receipts', { moves: [{ product_id: ids.desk, product_uom_qty: 5 }] }, 201);
    await post(`/inventories/receipts/${receipt.data.id}/todo`);
    await post(`/inventories/receipts/${receipt.data.id}/validate`);
  });

  test('quotation → delivery → invoice → two payments → credit note → up-sell invoice', async () => {
    const quotation = await post(
      '/sales/orders',
      {
        partner_id: ids.customer,
        payment_term_id: ids.term,
        date_order: '2026-11-23',
        lines: [
          { product_id: ids.desk, product_qty: 2, price_unit: 200, taxes: [ids.tax] },
          { product_id: ids.setup, product_qty: 1, price_unit: 50 },
        ],
      },
      201,
    );
    const order = quotation.data.id;
    const confirmed = await post(`/sales/orders/${order}/confirm?include=deliveries`);
    assert.is(confirmed.data.invoice_status, 'to_invoice', 'the setup (invoiced on order) can be invoiced at once');

    // The desks are invoiced once delivered.
    const [delivery] = confirmed.data.deliveries;
    await post(`/inventories/deliveries/${delivery.id}/validate`);
    const deliveries = await get(`/sales/orders/${order}/deliveries`);
    assert.equal(
      deliveries.data.map((d: any) => [d.id, d.state]),
      [[delivery.id, 'done']],
    );
    const lines = (await get(`/sales/orders/${order}/lines`)).data;
    assert.equal(
      lines.map((l: any) => [l.qty_delivered, l.qty_to_invoice, l.invoice_status]),
      [
        [2, 2, 'to_invoice'],
        [0, 1, 'to_invoice'],
      ],
    );

    const created = await post(`/sales/orders/${order}/create-invoice?include=invoiceLines`, { invoice_date: '2026-11-24' }, 201);
    assert.is(created.message, 'Invoice created successfully.');
    const invoice = created.data;
    assert.equal([invoice.state, invoice.invoice_origin, invoice.sale_order_id, invoice.amount_total], ['draft', quotation.data.name, order, '510.0000']);
    assert.equal(
      invoice.invoice_lines.map((l: any) => [l.product_id, l.quantity]),
      [
        [ids.desk, '2.0000'],
        [ids.setup, '1.0000'],
      ],
    );
    assert.is((await post(`/sales/orders/${order}/create-invoice`, {}, 422)).message, 'There is nothing to invoice: every line is invoiced, or waits for its delivery.');

    const posted = await post(`/accounts/invoices/${invoice.id}/confirm`);
    assert.match(posted.data.name, /^INV\/2026\/\d{5}$/);
    assert.is((await get(`/sales/orders/${order}`)).data.invoice_status, 'invoiced');

    const half = await post(`/accounts/invoices/${invoice.id}/pay`, { amount: 255 });
    assert.equal([half.data.payment_state, half.data.amount_residual], ['partial', '255.0000']);
    const rest = await post(`/accounts/invoices/${invoice.id}/pay`);
    assert.equal([rest.data.payment_state, rest.data.amount_residual], ['paid', '0.0000']);
    const listed = await get(`/sales/orders/${order}/invoices`);
    assert.equal(
      listed.data.map((i: any) => [i.id, i.state, i.payment_state]),
      [[invoice.id, 'posted', 'paid']],
    );

    // The setup is refunded: a credit note by reversing, confirmed; the order can invoice it again.
    const note = await post(`/accounts/invoices/${invoice.id}/reverse`, { reason: 'setup not done', date: '2026-11-25' }, 201);
    assert.equal([note.data.move_type, note.data.amount_total], ['out_refund', '510.0000']);
    await post(`/accounts/credit-notes/${note.data.id}/confirm`);
    const refunded = (await get(`/sales/orders/${order}/lines`)).data;
    assert.equal(
      refunded.map((l: any) => l.qty_invoiced),
      [0, 0],
    );
    assert.is((await get(`/sales/orders/${order}`)).data.invoice_status, 'to_invoice');
    assert.equal((await get(`/sales/orders/${order}/invoices`)).data.length, 1, 'credit notes are not invoices');

    // An up-sell: a second setup ordered; the next invoice takes everything left.
    await app.client.put(`${API}/sales/orders/${order}`, {
      token: app.token,
      body: {
        lines: [
          { id: lines[0].id, product_id: ids.desk, product_qty: 2 },
          { id: lines[1].id, product_id: ids.setup, product_qty: 2 },
        ],
      },
    });
    const second = await post(`/sales/orders/${order}/create-invoice?include=invoiceLines`, {}, 201);
    assert.equal(
      second.data.invoice_lines.map((l: any) => [l.product_id, l.quantity]),
      [
        [ids.desk, '2.0000'],
        [ids.setup, '2.0000'],
      ],
    );
    await post(`/accounts/invoices/${second.data.id}/confirm`);
    assert.is((await get(`/sales/orders/${order}`)).data.invoice_status, 'invoiced');
    assert.equal(
      (await get(`/sales/orders/${order}/lines`)).data.map((l: any) => [l.qty_invoiced, l.qty_to_invoice, l.invoice_status]),
      [
        [2, 0, 'invoiced'],
        [2, 0, 'invoiced'],
      ],
    );
  });

  test.run();
}
