// Invoices, credit notes, bills and refunds through their workflow: amounts with taxes and
// instalments, numbers given at confirmation, payments, reversals and resets — checked on what a
// client reads and on the journal items stored.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`invoices [${target.name}]`);
  let app: TestApp & { token: string };
  const ids: Record<string, number> = {};
  const post = (path: string, body?: unknown) => app.client.post(`${API}${path}`, { token: app.token, body });
  const put = (path: string, body?: unknown) => app.client.put(`${API}${path}`, { token: app.token, body });
  const get = (path: string) => app.client.get(`${API}${path}`, { token: app.token });
  const invoice = async (lines: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}, path = '/accounts/invoices') => {
    const response = await post(path, {
      partner_id: ids.partner,
      currency_id: ids.currency,
      journal_id: path.includes('bills') || path.includes('refunds') ? ids.purchaseJournal : ids.saleJournal,
      invoice_date: '2026-11-20',
      invoice_date_due: '2026-12-20',
      invoice_lines: lines.map((line) => ({ product_id: ids.product, uom_id: ids.uom, quantity: 1, price_unit: 100, ...line })),
      ...extra,
    });
    assert.is(response.status, 201, response.text);
    return response.body.data;
  };
  const balanced = async (moveId: number) => {
    const items = await app.knex('accounts_account_move_lines').where('move_id', moveId);
    const debit = items.reduce((sum, item) => sum + Number(item.debit), 0);
    const credit = items.reduce((sum, item) => sum + Number(item.credit), 0);
    assert.ok(Math.abs(debit - credit) < 0.00001, `debits ${debit} = credits ${credit}`);
    return items;
  };

  test.before(async () => {
    app = await sharedApp(target);
    const category = (await app.knex('products_categories').orderBy('id').first('id')).id;
    ids.product = (await post('/products/products', { type: 'service', name: `Consulting ${target.name}`, price: 100, category_id: category })).body.data.id;
    ids.uom = (await app.knex('products_products').where('id', ids.product).first('uom_id')).uom_id;
    ids.partner = (await post('/partners/partners', { account_type: 'company', name: `Invoiced customer ${target.name}` })).body.data.id;
    ids.currency = (await app.knex('companies').orderBy('id').first('currency_id')).currency_id;
    ids.saleJournal = (await app.knex('accounts_journals').where('type', 'sale').first('id')).id;
    ids.purchaseJournal = (await app.knex('accounts_journals').where('type', 'purchase').first('id')).id;
    ids.bank = (await app.knex('accounts_journals').where('type', 'bank').first('id')).id;
    ids.tax = (await app.knex('accounts_taxes').where('type_tax_use', 'sale').first('id')).id;
    ids.term = (await app.knex('accounts_payment_terms').where('name', '30% Now, Balance 60 Days').first('id')).id;
  });

  test('a draft has its amounts, lines and receivable, and no number yet', async () => {
    const draft = await invoice([
      { quantity: 2, price_unit: 100, taxes: [ids.tax] },
      { quantity: 1, price_unit: 50, discount: 10 },
    ]);
    assert.equal([draft.state, draft.payment_state, draft.name, draft.move_type], ['draft', 'not_paid', null, 'out_invoice']);
    assert.equal([draft.amount_untaxed, draft.amount_tax, draft.amount_total, draft.amount_residual], ['245.0000', '30.0000', '275.0000', '275.0000']);
    const shown = await get(`/accounts/invoices/${draft.id}?include=invoiceLines.taxes,journalItems`);
    assert.equal(
      shown.body.data.invoice_lines.map((line: any) => [line.quantity, line.price_subtotal, line.price_total, line.taxes.map((t: any) => t.id)]),
      [
        ['2.0000', '200.0000', '230.0000', [ids.tax]],
        ['1.0000', '45.0000', '45.0000', []],
      ],
    );
    const items = await balanced(draft.id);
    assert.equal(items.map((item) => item.display_type).sort(), ['payment_term', 'product', 'product', 'tax']);
  });

  test('confirm names the invoice; pay half, then the rest', async () => {
    const draft = await invoice([{ quantity: 2, price_unit: 100 }]);
    const confirmed = await post(`/accounts/invoices/${draft.id}/confirm`);
    assert.is(confirmed.status, 200, confirmed.text);
    assert.is(confirmed.body.message, 'Invoice confirmed successfully.');
    assert.match(confirmed.body.data.name, /^INV\/2026\/\d{5}$/);
    assert.is(confirmed.body.data.state, 'posted');
    const half = await post(`/accounts/invoices/${draft.id}/pay`, { amount: 100, payment_date: '2026-11-21' });
    assert.is(half.status, 200, half.text);
    assert.equal([half.body.data.payment_state, half.body.data.amount_residual], ['partial', '100.0000']);
    const over = await post(`/accounts/invoices/${draft.id}/pay`, { amount: 150 });
    assert.is(over.status, 422, over.text);
    assert.ok(over.body.errors.amount);
    const rest = await post(`/accounts/invoices/${draft.id}/pay?include=payments`, {});
    assert.is(rest.status, 200, rest.text);
    assert.equal([rest.body.data.payment_state, rest.body.data.amount_residual], ['paid', '0.0000']);
    assert.equal(
      rest.body.data.payments.map((p: any) => [p.amount, p.payment_type]),
      [
        ['100.0000', 'inbound'],
        ['100.0000', 'inbound'],
      ],
    );
    assert.match(rest.body.data.payments[0].name, /^PBANK\/2026\/\d{5}$/);
    const payments = await get(`/accounts/payments?filter[partner_id]=${ids.partner}`);
    assert.ok(payments.body.data.length >= 2);
    const again = await post(`/accounts/invoices/${draft.id}/pay`, {});
    assert.equal([again.status, again.body.message], [422, 'Only posted invoices with pending payment can be paid.']);
  });

  test('reverse drafts a credit note; confirming it settles the invoice', async () => {
    const draft = await invoice([{ quantity: 3, price_unit: 40, taxes: [ids.tax] }]);
    await post(`/accounts/invoices/${draft.id}/confirm`);
    const invalid = await post(`/accounts/invoices/${draft.id}/reverse`, { reason: 7, date: '2026-02-30' });
    assert.is(invalid.status, 422);
    assert.equal(Object.keys(invalid.body.errors).sort(), ['date', 'reason']);
    const unknown = await post(`/accounts/invoices/${draft.id}/reverse`, { journal_id: 999999 });
    assert.equal([unknown.status, Object.keys(unknown.body.errors)], [422, ['journal_id']]);
    assert.is(await app.knex('accounts_account_moves').where('reversed_entry_id', draft.id).first('id'), undefined, 'nothing written');
    const reversed = await post(`/accounts/invoices/${draft.id}/reverse`, { reason: 'damaged', journal_id: ids.saleJournal, date: '2026-11-22' });
    assert.is(reversed.status, 201, reversed.text);
    const note = reversed.body.data;
    assert.equal([note.move_type, note.state, note.reversed_entry_id, note.amount_total], ['out_refund', 'draft', draft.id, '138.0000']);
    const confirmed = await post(`/accounts/credit-notes/${note.id}/confirm`);
    assert.is(confirmed.status, 200, confirmed.text);
    assert.match(confirmed.body.data.name, /^RINV\/2026\/\d{5}$/);
    assert.is(confirmed.body.data.payment_state, 'paid');
    const original = (await get(`/accounts/invoices/${draft.id}`)).body.data;
    assert.equal([original.payment_state, original.amount_residual], ['reversed', '0.0000']);
    await balanced(note.id);
  });

  test('reset to draft undoes payments and keeps the number; posted documents are not edited or deleted', async () => {
    const draft = await invoice([{ quantity: 1, price_unit: 80 }]);
    const { name } = (await post(`/accounts/invoices/${draft.id}/confirm`)).body.data;
    assert.is((await post(`/accounts/invoices/${draft.id}/pay`, { amount: 30 })).status, 200);
    const edit = await put(`/accounts/invoices/${draft.id}`, { narration: 'x' });
    assert.equal([edit.status, edit.body.message], [422, 'Cannot update a posted invoice.']);
    const reset = await post(`/accounts/invoices/${draft.id}/reset-to-draft`);
    assert.is(reset.status, 200, reset.text);
    assert.equal([reset.body.data.state, reset.body.data.payment_state, reset.body.data.amount_residual, reset.body.data.name], ['draft', 'not_paid', '80.0000', name]);
    const removed = await app.client.delete(`${API}/accounts/invoices/${draft.id}`, { token: app.token });
    assert.is(removed.status, 422, 'a confirmed-before draft keeps its number');
    const again = await post(`/accounts/invoices/${draft.id}/confirm`);
    assert.is(again.body.data.name, name);
  });

  test('a payment term splits the receivable; the default payment is what is due now', async () => {
    const draft = await invoice([{ quantity: 1, price_unit: 1000 }], { invoice_date_due: null, invoice_payment_term_id: ids.term });
    const items = (await balanced(draft.id)).filter((item) => item.display_type === 'payment_term');
    assert.equal(
      items.map((item) => [Number(item.debit), item.date_maturity]),
      [
        [300, '2026-11-20'],
        [700, '2027-01-19'],
      ],
    );
    await post(`/accounts/invoices/${draft.id}/confirm`);
    const paid = await post(`/accounts/invoices/${draft.id}/pay`, { payment_date: '2026-11-20' });
    assert.equal([paid.body.data.payment_state, paid.body.data.amount_residual], ['partial', '700.0000']);
  });

  test('a cash rounding rounds the total on a line of its own; confirming makes the partner a customer', async () => {
    const rounding = await post('/accounts/cash-roundings', { name: `5 cents ${target.name}`, strategy: 'add_invoice_line', rounding_method: 'HALF-UP', rounding: 0.05 });
    assert.is(rounding.status, 201, rounding.text);
    const partner = (await post('/partners/partners', { account_type: 'company', name: `New customer ${target.name}` })).body.data.id;
    assert.is((await get(`/accounts/customers/${partner}`)).status, 404, 'not a customer yet');
    const draft = await invoice([{ quantity: 1, price_unit: 100.02 }], { partner_id: partner, invoice_cash_rounding_id: rounding.body.data.id });
    assert.equal([draft.amount_untaxed, draft.amount_total], ['100.0000', '100.0000']);
    const items = await balanced(draft.id);
    assert.equal(
      items.filter((item) => item.display_type === 'rounding').map((item) => Number(item.balance)),
      [0.02],
    );
    assert.is((await post(`/accounts/invoices/${draft.id}/confirm`)).status, 200);
    const customer = await get(`/accounts/customers/${partner}`);
    assert.equal([customer.status, customer.body.data.customer_rank], [200, 1]);
  });

  test('with a cash rounding and a payment term, each instalment can be paid in cash; the last takes the rest', async () => {
    const rounding = await post('/accounts/cash-roundings', { name: `5 cents terms ${target.name}`, strategy: 'add_invoice_line', rounding_method: 'HALF-UP', rounding: 0.05 });
    assert.is(rounding.status, 201, rounding.text);
    // 33.33 → 33.35 (666.6 steps → 667); 30 % of it is 10.005 → 10.01 → 10.00 (200.2 steps); the rest 23.35.
    const draft = await invoice([{ quantity: 1, price_unit: 33.33 }], {
      invoice_date_due: null,
      invoice_payment_term_id: ids.term,
      invoice_cash_rounding_id: rounding.body.data.id,
    });
    assert.is(draft.amount_total, '33.3500');
    const items = (await balanced(draft.id)).filter((item) => item.display_type === 'payment_term');
    assert.equal(
      items.map((item) => [Number(item.amount_currency), item.date_maturity]),
      [
        [10, '2026-11-20'],
        [23.35, '2027-01-19'],
      ],
    );
  });

  test('concurrent confirmations take consecutive numbers: none twice, no gap', async () => {
    const drafts = [];
    for (let i = 0; i < 12; i++) drafts.push(await invoice([{ quantity: 1, price_unit: 10 + i }]));
    const confirmed = await Promise.all(drafts.map((draft) => post(`/accounts/invoices/${draft.id}/confirm`)));
    for (const response of confirmed) assert.is(response.status, 200, response.text);
    const numbers = confirmed.map((response) => Number(response.body.data.name.split('/')[2])).sort((a, b) => a - b);
    assert.equal(
      numbers,
      numbers.map((_, i) => numbers[0]! + i),
      'consecutive and distinct',
    );
    // Every number the journal gave this year, from the first: no gap anywhere.
    const all = (await app.knex('accounts_account_moves').where('journal_id', ids.saleJournal).where('name', 'like', 'INV/2026/%').pluck('name'))
      .map((name: string) => Number(name.split('/')[2]))
      .sort((a: number, b: number) => a - b);
    assert.equal(
      all,
      all.map((_: number, i: number) => i + 1),
    );
  });

  test('bills: purchase journal, BILL numbers, outbound payments', async () => {
    const bill = await invoice([{ quantity: 2, price_unit: 60 }], {}, '/accounts/bills');
    assert.is(bill.move_type, 'in_invoice');
    const confirmed = await post(`/accounts/bills/${bill.id}/confirm`);
    assert.match(confirmed.body.data.name, /^BILL\/2026\/\d{5}$/);
    assert.is(confirmed.body.data.amount_total_signed, '-120.0000');
    const paid = await post(`/accounts/bills/${bill.id}/pay?include=payments`, {});
    assert.is(paid.status, 200, paid.text);
    assert.equal([paid.body.data.payment_state, paid.body.data.payments[0].payment_type], ['paid', 'outbound']);
    assert.is((await get(`/accounts/invoices/${bill.id}`)).status, 404, 'a bill is not an invoice');
  });

  test.run();
}
