// The tax engine over HTTP, as a client sees it (issue 52): cascading taxes, price-included
// division taxes, group taxes, repartition lines (accounts, a reverse charge, the refund set), the
// company's rounding mode and a currency rounded to 0.05, on invoices, credit notes, bills and the
// orders they come from. Every amount is worked out by hand in the test's comments.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { asAdmin } from '../../helpers/as-admin.ts';
import { databaseTargets } from '../../helpers/targets.ts';

type Row = Record<string, any>;

for (const target of databaseTargets()) {
  const test = suite(`tax engine [${target.name}]`);
  let app: TestApp & { token: string };
  const ids: Record<string, number> = {};
  const { call, post, get, created } = asAdmin(() => app);
  const patch = (path: string, body: unknown) => app.client.send('PATCH', `${API}${path}`, { token: app.token, body });
  let serial = 0;
  /** A tax of this run (sale unless told), created through the API. */
  const tax = async (body: Row) => created('/accounts/taxes', { name: `T${++serial} ${target.name}`, type_tax_use: 'sale', amount_type: 'percent', ...body });
  const document = async (path: string, lines: Row[], extra: Row = {}) =>
    created(`${path}?include=invoiceLines`, {
      partner_id: ids.partner,
      currency_id: ids.currency,
      invoice_date: '2026-11-20',
      invoice_date_due: '2026-12-20',
      invoice_lines: lines.map((line) => ({ product_id: ids.service, uom_id: ids.uom, quantity: 1, ...line })),
      ...extra,
    });
  const amounts = (record: Row) => [record.amount_untaxed, record.amount_tax, record.amount_total];
  /** The document's tax lines: [tax, account, amount in the document currency, base], and its debits = credits. */
  const taxLines = async (moveId: number) => {
    const items: Row[] = await app.knex('accounts_account_move_lines').where('move_id', moveId).orderBy('sort').orderBy('id');
    const debit = items.reduce((sum, item) => sum + Number(item.debit), 0);
    const credit = items.reduce((sum, item) => sum + Number(item.credit), 0);
    assert.ok(Math.abs(debit - credit) < 0.00001, `debits ${debit} = credits ${credit}`);
    return items
      .filter((item) => item.display_type === 'tax')
      .map((item) => [Number(item.tax_line_id), Number(item.account_id), Number(item.amount_currency), Number(item.tax_base_amount)]);
  };

  test.before(async () => {
    app = await sharedApp(target);
    const category = (await app.knex('products_categories').orderBy('id').first('id')).id;
    ids.service = (await created('/products/products', { type: 'service', name: `Taxed service ${target.name}`, price: 100, category_id: category })).id;
    ids.uom = (await app.knex('products_products').where('id', ids.service).first('uom_id')).uom_id;
    ids.partner = (await created('/partners/partners', { account_type: 'company', name: `Taxed customer ${target.name}` })).id;
    ids.company = (await app.knex('companies').orderBy('id').first('id')).id;
    ids.term = (await app.knex('accounts_payment_terms').where('name', 'Immediate Payment').first('id')).id;
    ids.currency = (await app.knex('companies').where('id', ids.company).first('currency_id')).currency_id;
    const account = async (code: string) => Number((await app.knex('accounts_accounts').where('code', code).first('id')).id);
    ids.income = await account('400000');
    ids.expense = await account('600000');
    ids.taxReceived = await account('251000');
    ids.taxPaid = await account('131000');
  });

  test('a new tax books 100 % of its base and amount, for invoices and refunds; the seeded ones on their tax account', async () => {
    const ten = await tax({ amount: 10 });
    const shown = await get(`/accounts/taxes/${ten.id}?include=repartitionLines,invoiceRepartitionLines,refundRepartitionLines`);
    assert.equal(
      shown.data.repartition_lines.map((line: Row) => [line.document_type, line.repartition_type, line.factor_percent, line.factor, line.account_id]),
      [
        ['invoice', 'base', '100.0000', '1.0000', null],
        ['invoice', 'tax', '100.0000', '1.0000', null],
        ['refund', 'base', '100.0000', '1.0000', null],
        ['refund', 'tax', '100.0000', '1.0000', null],
      ],
    );
    assert.equal([shown.data.invoice_repartition_lines.length, shown.data.refund_repartition_lines.length, shown.data.is_base_affected], [2, 2, true]);
    const seeded = await app.knex('accounts_taxes').where('type_tax_use', 'sale').orderBy('id').first('id');
    const lines = await get(`/accounts/taxes/${seeded.id}/repartition-lines?filter[repartition_type]=tax`);
    assert.equal(
      lines.data.map((line: Row) => [line.document_type, line.account_id]),
      [
        ['invoice', ids.taxReceived],
        ['refund', ids.taxReceived],
      ],
    );
  });

  test('include_base_amount: the tax after it applies on the price plus it (10 % then 20 % of 110)', async () => {
    const eco = await tax({ amount: 10, include_base_amount: true });
    const vat = await tax({ amount: 20 });
    // 100; 10 % of 100 = 10; 20 % of 110 = 22: tax 32, total 132 (not 130).
    const invoice = await document('/accounts/invoices', [{ price_unit: 100, taxes: [vat.id, eco.id] }]);
    assert.equal(amounts(invoice), ['100.0000', '32.0000', '132.0000']);
    assert.equal(await taxLines(invoice.id), [
      [eco.id, ids.income, -10, 100],
      [vat.id, ids.income, -22, 110],
    ]);
    // Not affected by earlier taxes: 20 % of 100.
    await call('put', `/accounts/taxes/${vat.id}`, { is_base_affected: false });
    const again = await document('/accounts/invoices', [{ price_unit: 100, taxes: [vat.id, eco.id] }]);
    assert.equal(amounts(again), ['100.0000', '30.0000', '130.0000']);
  });

  test('division: included, the tax is amount % of the price (10 of 100, base 90); excluded, of the taxed price', async () => {
    const included = await tax({ amount_type: 'division', amount: 10, price_include: true });
    const invoice = await document('/accounts/invoices', [{ price_unit: 100, taxes: [included.id] }]);
    assert.equal(amounts(invoice), ['90.0000', '10.0000', '100.0000']);
    assert.equal(
      invoice.invoice_lines.map((line: Row) => [line.price_subtotal, line.price_total]),
      [['90.0000', '100.0000']],
    );
    // 90 × 0.10 / 0.90 = 10.
    const excluded = await tax({ amount_type: 'division', amount: 10 });
    assert.equal(amounts(await document('/accounts/invoices', [{ price_unit: 90, taxes: [excluded.id] }])), ['90.0000', '10.0000', '100.0000']);
  });

  test('a group tax applies its children in their order, each tax line naming the group', async () => {
    const eco = await tax({ type_tax_use: 'none', amount_type: 'fixed', amount: 2, include_base_amount: true });
    const vat = await tax({ type_tax_use: 'none', amount: 20 });
    const group = await tax({ amount_type: 'group', amount: 0, children: [vat.id, eco.id] });
    const shown = await get(`/accounts/taxes/${group.id}?include=children`);
    assert.equal(
      shown.data.children.map((child: Row) => child.id),
      [eco.id, vat.id],
    );
    // 3 × 50 = 150; the eco-tax 3 × 2 = 6; 20 % of 156 = 31.20.
    const invoice = await document('/accounts/invoices', [{ quantity: 3, price_unit: 50, taxes: [group.id] }]);
    assert.equal(amounts(invoice), ['150.0000', '37.2000', '187.2000']);
    assert.equal(await taxLines(invoice.id), [
      [eco.id, ids.income, -6, 150],
      [vat.id, ids.income, -31.2, 156],
    ]);
    assert.equal(await app.knex('accounts_account_move_lines').where({ move_id: invoice.id, display_type: 'tax' }).orderBy('id').pluck('group_tax_id'), [group.id, group.id]);

    // What a group may hold, as Odoo says.
    const refused = await call('post', '/accounts/taxes', { name: `Nested ${target.name}`, type_tax_use: 'sale', amount_type: 'group', amount: 0, children: [group.id] });
    assert.equal([refused.status, refused.body.errors], [422, { 'children.0': ['A group tax cannot contain another group tax (children.0).'] }]);
    const itself = await call('put', `/accounts/taxes/${vat.id}`, { amount_type: 'group', children: [vat.id] });
    assert.equal([itself.status, itself.body.errors], [422, { children: ['A group tax cannot contain itself.'] }]);
    const nesting = await call('put', `/accounts/taxes/${vat.id}`, { amount_type: 'group' });
    assert.equal([nesting.status, Object.keys(nesting.body.errors)], [422, ['amount_type']]);
    // A tax inside a group stays while the group holds it.
    const removed = await call('delete', `/accounts/taxes/${eco.id}`);
    assert.is(removed.status, 409, removed.text);
  });

  test('repartition: a reverse charge books +21 % and −21 % on two accounts and costs nothing', async () => {
    const reverse = await tax({ type_tax_use: 'purchase', amount: 21 });
    const [invoiceTax] = (await get(`/accounts/taxes/${reverse.id}/repartition-lines?filter[document_type]=invoice&filter[repartition_type]=tax`)).data;
    const onPaid = await patch(`/accounts/taxes/${reverse.id}/repartition-lines/${invoiceTax.id}`, { account_id: ids.taxPaid });
    assert.is(onPaid.status, 200, onPaid.text);
    const minus = await created(`/accounts/taxes/${reverse.id}/repartition-lines`, {
      document_type: 'invoice',
      repartition_type: 'tax',
      factor_percent: -100,
      account_id: ids.taxReceived,
    });
    assert.equal([minus.factor, minus.tax_id], ['-1.0000', reverse.id]);
    const bill = await document('/accounts/bills', [{ price_unit: 100, taxes: [reverse.id] }]);
    // 21 % of 100 = 21, booked +21 on Tax Paid and −21 on Tax Received: tax 0, total 100.
    assert.equal(amounts(bill), ['100.0000', '0.0000', '100.0000']);
    assert.equal(await taxLines(bill.id), [
      [reverse.id, ids.taxPaid, 21, 100],
      [reverse.id, ids.taxReceived, -21, 100],
    ]);
    const items = await get(`/accounts/bills/${bill.id}?include=journalItems`);
    assert.equal(
      items.data.journal_items.filter((item: Row) => item.display_type === 'tax').map((item: Row) => item.tax_repartition_line_id),
      [invoiceTax.id, minus.id],
    );
  });

  test('repartition: credit notes use the refund set, each share rounded, the largest taking the cent', async () => {
    const split = await tax({ amount: 10 });
    const [refundTax] = (await get(`/accounts/taxes/${split.id}/repartition-lines?filter[document_type]=refund&filter[repartition_type]=tax`)).data;
    assert.is((await patch(`/accounts/taxes/${split.id}/repartition-lines/${refundTax.id}`, { factor_percent: 30, account_id: ids.taxReceived })).status, 200);
    await created(`/accounts/taxes/${split.id}/repartition-lines`, { document_type: 'refund', repartition_type: 'tax', factor_percent: 70, account_id: ids.taxPaid });
    // 10 % of 0.50 = 0.05: 30 % is 0.015 → 0.02, 70 % is 0.035 → 0.04; 0.06 is a cent too many, the largest gives it back.
    const note = await document('/accounts/credit-notes', [{ price_unit: 0.5, taxes: [split.id] }]);
    assert.equal(amounts(note), ['0.5000', '0.0500', '0.5500']);
    assert.equal(await taxLines(note.id), [
      [split.id, ids.taxReceived, 0.02, 0.5],
      [split.id, ids.taxPaid, 0.03, 0.5],
    ]);
    // An invoice uses the invoice set: all of it on the line's account.
    const invoice = await document('/accounts/invoices', [{ price_unit: 0.5, taxes: [split.id] }]);
    assert.equal(await taxLines(invoice.id), [[split.id, ids.income, -0.05, 0.5]]);
  });

  test('the company rounds per line (0.48 on three lines of 1.05 at 15 %) or globally (0.47)', async () => {
    const fifteen = await tax({ amount: 15 });
    const lines = [1, 2, 3].map(() => ({ price_unit: 1.05, taxes: [fifteen.id] }));
    // Per line: 15 % of 1.05 = 0.1575 → 0.16, three times.
    assert.equal(amounts(await document('/accounts/invoices', lines)), ['3.1500', '0.4800', '3.6300']);
    const company = await get(`/support/companies/${ids.company}`);
    assert.is(company.data.tax_calculation_rounding_method, 'round_per_line');
    try {
      assert.is((await call('put', `/support/companies/${ids.company}`, { tax_calculation_rounding_method: 'round_globally' })).status, 200);
      // Globally: 3 × 0.1575 = 0.4725 → 0.47.
      const invoice = await document('/accounts/invoices', lines);
      assert.equal(amounts(invoice), ['3.1500', '0.4700', '3.6200']);
      assert.equal(await taxLines(invoice.id), [[fifteen.id, ids.income, -0.47, 3.15]]);
      // The order of the same lines says the same.
      const order = await created('/sales/orders', {
        partner_id: ids.partner,
        payment_term_id: ids.term,
        date_order: '2026-11-23',
        lines: lines.map((line) => ({ product_id: ids.service, product_qty: 1, ...line })),
      });
      assert.equal([order.amount_untaxed, order.amount_tax, order.amount_total], [3.15, 0.47, 3.62]);
    } finally {
      await call('put', `/support/companies/${ids.company}`, { tax_calculation_rounding_method: 'round_per_line' });
    }
  });

  test('a currency rounded to 0.05: the base and the tax at five cents', async () => {
    const chf = await app.knex('currencies').where('name', 'CHF').first('id', 'rounding');
    const tax75 = await tax({ amount: 7.5 });
    try {
      await app.knex('currencies').where('id', chf.id).update({ rounding: 0.05 });
      // 3 × 3.33 = 9.99 → 10.00; 7.5 % of 10.00 = 0.75. And 7.5 % of 11 = 0.825 → 0.85 (16.5 steps, half up).
      const invoice = await document(
        '/accounts/invoices',
        [
          { quantity: 3, price_unit: 3.33, taxes: [tax75.id] },
          { price_unit: 11, taxes: [tax75.id] },
        ],
        { currency_id: chf.id },
      );
      assert.equal(amounts(invoice), ['21.0000', '1.6000', '22.6000']);
      assert.equal(
        invoice.invoice_lines.map((line: Row) => [line.price_subtotal, line.price_total]),
        [
          ['10.0000', '10.7500'],
          ['11.0000', '11.8500'],
        ],
      );
    } finally {
      await app.knex('currencies').where('id', chf.id).update({ rounding: chf.rounding });
    }
  });

  test('an order and its invoice (and a purchase order and its bill) have the same totals', async () => {
    const eco = await tax({ amount: 10, include_base_amount: true });
    const vat = await tax({ amount: 20 });
    const included = await tax({ amount: 10, price_include: true });
    const ecoFixed = await tax({ type_tax_use: 'none', amount_type: 'fixed', amount: 2, include_base_amount: true });
    const vatChild = await tax({ type_tax_use: 'none', amount: 20 });
    const group = await tax({ amount_type: 'group', amount: 0, children: [ecoFixed.id, vatChild.id] });
    // 100 + 10 + 22; 110 with 10 % included: 100 + 10; 3 × 50 = 150 + 6 + 31.20: untaxed 350, tax 79.20.
    const order = await created('/sales/orders', {
      partner_id: ids.partner,
      payment_term_id: ids.term,
      date_order: '2026-11-23',
      lines: [
        { product_id: ids.service, product_qty: 1, price_unit: 100, taxes: [eco.id, vat.id] },
        { product_id: ids.service, product_qty: 1, price_unit: 110, taxes: [included.id] },
        { product_id: ids.service, product_qty: 3, price_unit: 50, taxes: [group.id] },
      ],
    });
    assert.equal([order.amount_untaxed, order.amount_tax, order.amount_total], [350, 79.2, 429.2]);
    await post(`/sales/orders/${order.id}/confirm`);
    const invoice = (await post(`/sales/orders/${order.id}/create-invoice`, { invoice_date: '2026-11-24' }, 201)).data;
    assert.equal(amounts(invoice), ['350.0000', '79.2000', '429.2000']);

    const division = await tax({ type_tax_use: 'purchase', amount_type: 'division', amount: 10, price_include: true });
    const vendor = await created('/partners/partners', { account_type: 'company', name: `Taxed vendor ${target.name}` });
    // 2 × 100 with 10 % division included: tax 20, untaxed 180.
    const purchase = await created('/purchases/purchase-orders', {
      partner_id: vendor.id,
      currency_id: ids.currency,
      ordered_at: '2026-11-23T09:00:00Z',
      lines: [{ product_id: ids.service, product_qty: 2, price_unit: 100, taxes: [division.id] }],
    });
    assert.equal([purchase.untaxed_amount, purchase.tax_amount, purchase.total_amount], [180, 20, 200]);
    await post(`/purchases/purchase-orders/${purchase.id}/confirm`);
    const bill = (await post(`/purchases/purchase-orders/${purchase.id}/create-bill`, { invoice_date: '2026-11-24' }, 201)).data;
    assert.equal(amounts(bill), ['180.0000', '20.0000', '200.0000']);
  });

  test.run();
}
