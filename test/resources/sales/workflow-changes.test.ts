// What a workflow action changes in records of other resources is in the change feed: the
// actions write them through the engine's record writers (issue 37, "one way to write"), so a
// sales order's confirmation and cancellation show its lines' new state (their copy of the
// order's), an invoice's confirmation its customer's rank, and a reset to draft the payment it
// leaves unmatched.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sharedApp, type TestApp } from '../../helpers/app.ts';
import { asAdmin } from '../../helpers/as-admin.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`workflow changes [${target.name}]`);
  let app: TestApp & { token: string };
  const admin = asAdmin(() => app);
  const ids: Record<string, number> = {};

  /** The changes of these resources after the cursor, and the cursor after them. */
  async function changesAfter(after: string, resources: string) {
    const changes: any[] = [];
    let cursor = after;
    for (;;) {
      const page = await admin.call('get', `/changes?after=${cursor}&resources=${resources}&limit=1000`);
      assert.is(page.status, 200, page.text);
      changes.push(...page.body.data);
      cursor = page.body.next_cursor;
      if (!page.body.has_more) return { changes, cursor };
    }
  }
  /** The cursor of the newest change of `resource`. */
  const newest = async (resource: string) => (await changesAfter(String((await app.knex('change_feed').first('purged_through')).purged_through), resource)).cursor;
  /** The changes of `resource` after the cursor. */
  const seen = async (after: string, resource: string) =>
    (await changesAfter(after, resource)).changes.map((change) => ({ id: Number(change.record_id), kind: change.kind, changed: change.changed ?? [], record: change.record }));

  test.before(async () => {
    app = await sharedApp(target);
    const category = (await app.knex('products_categories').orderBy('id').first('id')).id;
    ids.service = (await admin.created('/products/products', { type: 'service', name: `Feed service ${target.name}`, price: 100, category_id: category })).id;
    ids.uom = (await app.knex('products_products').where('id', ids.service).first('uom_id')).uom_id;
    ids.partner = (await admin.created('/partners/partners', { account_type: 'company', name: `Feed customer ${target.name}` })).id;
    ids.term = (await app.knex('accounts_payment_terms').whereNull('deleted_at').orderBy('id').first('id')).id;
    ids.currency = (await app.knex('companies').orderBy('id').first('currency_id')).currency_id;
    ids.saleJournal = (await app.knex('accounts_journals').where('type', 'sale').first('id')).id;
  });

  test("a sales order's confirmation and cancellation record its lines' new state", async () => {
    const order = await admin.created('/sales/orders', {
      partner_id: ids.partner,
      payment_term_id: ids.term,
      date_order: '2026-11-23',
      lines: [
        { product_id: ids.service, product_qty: 1, price_unit: 100 },
        { product_id: ids.service, product_qty: 2, price_unit: 50 },
      ],
    });
    const lineIds = (await app.knex('sales_order_lines').where('order_id', order.id).orderBy('id').pluck('id')).map(Number);
    for (const [action, state] of [
      ['confirm', 'sale'],
      ['cancel', 'cancel'],
    ] as const) {
      const start = await newest('sales/order-lines');
      await admin.post(`/sales/orders/${order.id}/${action}`);
      const lines = (await seen(start, 'sales/order-lines')).filter((change) => change.kind === 'updated');
      assert.equal(lines.map((change) => change.id).sort(), lineIds, `${action}: each line changed`);
      for (const change of lines) {
        assert.ok(change.changed.includes('state'), `${action}: ${JSON.stringify(change.changed)}`);
        assert.is(change.record.state, state, `${action}: the line as it is now`);
      }
    }
  });

  test("an invoice's confirmation records its customer's rank; a reset to draft the payment it leaves unmatched", async () => {
    const invoice = await admin.created('/accounts/invoices', {
      partner_id: ids.partner,
      currency_id: ids.currency,
      journal_id: ids.saleJournal,
      invoice_date: '2026-11-20',
      invoice_date_due: '2026-12-20',
      invoice_lines: [{ product_id: ids.service, uom_id: ids.uom, quantity: 1, price_unit: 100 }],
    });
    let start = await newest('partners/partners');
    await admin.post(`/accounts/invoices/${invoice.id}/confirm`);
    const partner = await seen(start, 'partners/partners');
    assert.equal(
      partner.map((change) => [change.id, change.kind]),
      [[ids.partner, 'updated']],
    );
    assert.ok(partner[0]!.changed.includes('customer_rank'), JSON.stringify(partner[0]!.changed));

    await admin.post(`/accounts/invoices/${invoice.id}/pay`, {});
    const payment = Number((await app.knex('accounts_accounts_move_payment').where('invoice_id', invoice.id).first('payment_id')).payment_id);
    assert.is((await admin.get(`/accounts/payments/${payment}`)).data.is_reconciled, true);
    start = await newest('accounts/payments');
    await admin.post(`/accounts/invoices/${invoice.id}/reset-to-draft`);
    const payments = await seen(start, 'accounts/payments');
    assert.equal(
      payments.map((change) => [change.id, change.kind, change.changed, change.record.is_reconciled]),
      [[payment, 'updated', ['is_reconciled'], false]],
    );
  });

  test.run();
}
