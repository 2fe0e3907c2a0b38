// Early-payment discounts (issue 52): a payment term of one 100 % due term offering 2 % within 7
// days. The invoice's receivable line shows the discount date and what is left to pay by then; a
// payment on or before that date takes the discount, booked on the company's discount account (and,
// when the discount includes the taxes, partly on the tax account); after it, the whole amount is
// due. Worked numbers from the formulas of reference-o2c-p2p §2.7 (Odoo's payment terms):
//   included: 100 + 15 % tax = 115.00; 115 × 0.98 = 112.70; discount 2.30 = 0.30 of tax + 2.00.
//   excluded: 115 − 100 × 0.02 = 113.00; discount 2.00, the tax due in full.
//   with a 0.05 cash rounding: 33.33 + 5.00 tax = 38.33 → 38.35 (a 0.02 rounding line);
//     38.35 × 0.98 = 37.583 → 37.58 → 37.60 in cash.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`early-payment discounts [${target.name}]`);
  let app: TestApp & { token: string };
  const ids: Record<string, number> = {};
  const post = (path: string, body?: unknown) => app.client.post(`${API}${path}`, { token: app.token, body });
  const put = (path: string, body?: unknown) => app.client.put(`${API}${path}`, { token: app.token, body });
  const items = (moveId: number) => app.knex('accounts_account_move_lines').where('move_id', moveId).orderBy('sort').orderBy('id');
  const accountId = async (code: string) => Number((await app.knex('accounts_accounts').where('code', code).first('id')).id);

  /** A payment term of one due term of 100 % at 30 days, with a 2 % discount within 7 days. */
  const discountTerm = async (computation: 'included' | 'excluded') => {
    const term = await post('/accounts/payment-terms', { name: `2/7 Net 30 ${computation} ${target.name}` });
    assert.is(term.status, 201, term.text);
    const dueTerm = (await app.knex('accounts_payment_due_terms').where('payment_id', term.body.data.id).first('id')).id;
    assert.is((await put(`/accounts/payment-terms/${term.body.data.id}/due-terms/${dueTerm}`, { nb_days: 30 })).status, 200);
    const updated = await put(`/accounts/payment-terms/${term.body.data.id}`, { early_discount: true, discount_percentage: 2, discount_days: 7, early_pay_discount: computation });
    assert.is(updated.status, 200, updated.text);
    assert.equal(
      [updated.body.data.early_discount, updated.body.data.discount_percentage, updated.body.data.discount_days, updated.body.data.early_pay_discount],
      [true, '2.0000', 7, computation],
    );
    return Number(term.body.data.id);
  };
  const document = async (path: string, term: number | undefined, lines: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) => {
    const bill = path.includes('bills');
    const created = await post(path, {
      partner_id: ids.partner,
      currency_id: ids.currency,
      journal_id: bill ? ids.purchaseJournal : ids.saleJournal,
      invoice_date: '2026-11-20',
      invoice_payment_term_id: term,
      invoice_lines: lines.map((line) => ({ product_id: ids.product, uom_id: ids.uom, quantity: 1, price_unit: 100, taxes: [bill ? ids.purchaseTax : ids.saleTax], ...line })),
      ...extra,
    });
    assert.is(created.status, 201, created.text);
    const confirmed = await post(`${path}/${created.body.data.id}/confirm`);
    assert.is(confirmed.status, 200, confirmed.text);
    return confirmed.body.data;
  };
  const receivable = async (moveId: number) => (await items(moveId)).filter((item) => item.display_type === 'payment_term');
  const dateOf = (value: unknown) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10));

  test.before(async () => {
    app = await sharedApp(target);
    const category = (await app.knex('products_categories').orderBy('id').first('id')).id;
    ids.product = (await post('/products/products', { type: 'service', name: `Discounted consulting ${target.name}`, price: 100, category_id: category })).body.data.id;
    ids.uom = (await app.knex('products_products').where('id', ids.product).first('uom_id')).uom_id;
    ids.partner = (await post('/partners/partners', { account_type: 'company', name: `Early payer ${target.name}` })).body.data.id;
    ids.company = (await app.knex('companies').orderBy('id').first('id')).id;
    ids.currency = (await app.knex('companies').orderBy('id').first('currency_id')).currency_id;
    ids.saleJournal = (await app.knex('accounts_journals').where('type', 'sale').first('id')).id;
    ids.purchaseJournal = (await app.knex('accounts_journals').where('type', 'purchase').first('id')).id;
    ids.saleTax = (await app.knex('accounts_taxes').where('type_tax_use', 'sale').first('id')).id;
    ids.purchaseTax = (await app.knex('accounts_taxes').where('type_tax_use', 'purchase').first('id')).id;
    ids.included = await discountTerm('included');
    ids.excluded = await discountTerm('excluded');
  });

  test('a fresh installation books discounts on its own accounts, and seeds 2/7 Net 30 with its discount', async () => {
    const company = await app.client.get(`${API}/support/companies/${ids.company}?include=earlyPayDiscountLossAccount,earlyPayDiscountGainAccount`, { token: app.token });
    assert.equal([company.body.data.early_pay_discount_loss_account.code, company.body.data.early_pay_discount_gain_account.code], ['642000', '442000']);
    const seeded = await app.client.get(`${API}/accounts/payment-terms?filter[name]=2/7 Net 30&include=dueTerms`, { token: app.token });
    const term = seeded.body.data.find((row: any) => row.name === '2/7 Net 30');
    assert.equal([term.early_discount, term.discount_percentage, term.discount_days, term.early_pay_discount, term.due_terms.length], [true, '2.0000', 7, 'included', 1]);
  });

  test('the receivable line shows the discount date and what is left to pay by then', async () => {
    const invoice = await document('/accounts/invoices', ids.included, [{}]);
    assert.equal([invoice.amount_untaxed, invoice.amount_tax, invoice.amount_total], ['100.0000', '15.0000', '115.0000']);
    const [line] = await receivable(invoice.id);
    assert.equal(
      [dateOf(line!.date_maturity), dateOf(line!.discount_date), Number(line!.discount_amount_currency), Number(line!.discount_balance)],
      ['2026-12-20', '2026-11-27', 112.7, 112.7],
    );
    const shown = await app.client.get(`${API}/accounts/invoices/${invoice.id}?include=journalItems`, { token: app.token });
    const term = shown.body.data.journal_items.find((item: any) => item.display_type === 'payment_term');
    assert.equal([term.discount_date, term.discount_amount_currency, term.discount_balance], ['2026-11-27T00:00:00.000000Z', '112.7000', '112.7000']);
    // Without a discount on the term, none on the line.
    const plain = (await app.knex('accounts_payment_terms').where('name', '30 Days').first('id')).id;
    const [undiscounted] = await receivable((await document('/accounts/invoices', plain, [{}])).id);
    assert.equal([undiscounted!.discount_date, Number(undiscounted!.discount_amount_currency)], [null, 0]);
  });

  test('paid on or before the discount date: the discount is taken, partly off the tax', async () => {
    const invoice = await document('/accounts/invoices', ids.included, [{}]);
    const paid = await post(`/accounts/invoices/${invoice.id}/pay?include=payments`, { payment_date: '2026-11-27' });
    assert.is(paid.status, 200, paid.text);
    assert.equal([paid.body.data.payment_state, paid.body.data.amount_residual], ['paid', '0.0000']);
    assert.equal(
      paid.body.data.payments.map((payment: any) => payment.amount),
      ['112.7000'],
    );
    const entry = await items(Number((await app.knex('accounts_account_payments').where('id', paid.body.data.payments[0].id).first('move_id')).move_id));
    const taxAccount = Number((await app.knex('accounts_taxes').where('id', ids.saleTax).first('account_id')).account_id);
    assert.equal(
      entry.map((item) => [item.display_type, Number(item.account_id), Number(item.debit), Number(item.credit), item.tax_line_id == null ? null : Number(item.tax_line_id)]),
      [
        ['product', Number(entry[0]!.account_id), 112.7, 0, null], // the bank
        ['product', await accountId('642000'), 2, 0, null], // the discount on the untaxed amount
        ['product', taxAccount, 0.3, 0, ids.saleTax], // and on the tax: 2 % of 15.00
        ['payment_term', Number((await receivable(invoice.id))[0]!.account_id), 0, 115, null],
      ],
    );
  });

  test('paid after the discount date: the whole amount is due; an amount that is not the discounted one takes no discount', async () => {
    const late = await document('/accounts/invoices', ids.included, [{}]);
    const paid = await post(`/accounts/invoices/${late.id}/pay?include=payments`, { payment_date: '2026-11-28' });
    assert.is(paid.status, 200, paid.text);
    assert.equal([paid.body.data.payment_state, paid.body.data.payments.map((payment: any) => payment.amount)], ['paid', ['115.0000']]);

    const partial = await document('/accounts/invoices', ids.included, [{}]);
    const some = await post(`/accounts/invoices/${partial.id}/pay`, { payment_date: '2026-11-21', amount: 113 });
    assert.equal([some.status, some.body.data.payment_state, some.body.data.amount_residual], [200, 'partial', '2.0000']);
    // Once partly paid, the offer is gone: what is left is due in full.
    const rest = await post(`/accounts/invoices/${partial.id}/pay`, { payment_date: '2026-11-22' });
    assert.equal([rest.status, rest.body.data.payment_state], [200, 'paid']);
    assert.equal(
      (await app.knex('accounts_account_payments').whereIn('move_id', app.knex('accounts_account_moves').where('reference', partial.name).select('id')))
        .map((row) => Number(row.amount))
        .sort((a, b) => a - b),
      [2, 113],
    );
  });

  test('a bill whose discount excludes the taxes: the vendor is paid 113.00, the discount a gain, the tax paid in full', async () => {
    const bill = await document('/accounts/bills', ids.excluded, [{}]);
    assert.is(bill.amount_total, '115.0000');
    const [line] = await receivable(bill.id);
    assert.equal([Number(line!.amount_currency), Number(line!.discount_amount_currency), dateOf(line!.discount_date)], [-115, -113, '2026-11-27']);
    const paid = await post(`/accounts/bills/${bill.id}/pay?include=payments`, { payment_date: '2026-11-20' });
    assert.is(paid.status, 200, paid.text);
    assert.equal([paid.body.data.payment_state, paid.body.data.payments[0].amount, paid.body.data.payments[0].payment_type], ['paid', '113.0000', 'outbound']);
    const entry = await items(Number((await app.knex('accounts_account_payments').where('id', paid.body.data.payments[0].id).first('move_id')).move_id));
    assert.equal(
      entry.map((item) => [item.display_type, Number(item.debit), Number(item.credit)]),
      [
        ['product', 0, 113],
        ['product', 0, 2],
        ['payment_term', 115, 0],
      ],
    );
    assert.is(Number(entry[1]!.account_id), await accountId('442000'));
  });

  test('with a cash rounding, the discounted amount can be paid in cash too', async () => {
    const rounding = await post('/accounts/cash-roundings', { name: `5 cents early ${target.name}`, strategy: 'add_invoice_line', rounding_method: 'HALF-UP', rounding: 0.05 });
    assert.is(rounding.status, 201, rounding.text);
    const invoice = await document('/accounts/invoices', ids.included, [{ price_unit: 33.33 }], { invoice_cash_rounding_id: rounding.body.data.id });
    assert.equal([invoice.amount_untaxed, invoice.amount_tax, invoice.amount_total], ['33.3500', '5.0000', '38.3500']);
    const [line] = await receivable(invoice.id);
    assert.equal([Number(line!.discount_amount_currency), Number(line!.discount_balance)], [37.6, 37.6]);
    const paid = await post(`/accounts/invoices/${invoice.id}/pay?include=payments`, { payment_date: '2026-11-23' });
    assert.equal([paid.status, paid.body.data.payment_state, paid.body.data.payments[0]?.amount], [200, 'paid', '37.6000']);
  });

  test('credit notes offer no discount', async () => {
    const invoice = await document('/accounts/invoices', ids.included, [{}]);
    const note = await post(`/accounts/invoices/${invoice.id}/reverse`, { date: '2026-11-21' });
    assert.is(note.status, 201, note.text);
    const [line] = await receivable(note.body.data.id);
    assert.equal([line!.discount_date, Number(line!.discount_amount_currency)], [null, 0]);
  });

  test('without a discount account the payment taking the discount is refused, nothing written; the whole amount can still be paid', async () => {
    const invoice = await document('/accounts/invoices', ids.included, [{}]);
    const loss = (await app.knex('companies').where('id', ids.company).first('early_pay_discount_loss_account_id')).early_pay_discount_loss_account_id;
    await app.knex('companies').where('id', ids.company).update({ early_pay_discount_loss_account_id: null });
    try {
      const payments = await app.knex('accounts_account_payments').count({ n: '*' }).first();
      const refused = await post(`/accounts/invoices/${invoice.id}/pay`, { payment_date: '2026-11-21' });
      assert.is(refused.status, 422, refused.text);
      assert.match(refused.body.errors.amount[0], /early_pay_discount_loss_account_id/);
      assert.equal(await app.knex('accounts_account_payments').count({ n: '*' }).first(), payments, 'no payment written');
      const whole = await post(`/accounts/invoices/${invoice.id}/pay`, { payment_date: '2026-11-21', amount: 115 });
      assert.equal([whole.status, whole.body.data.payment_state], [200, 'paid']);
    } finally {
      await app.knex('companies').where('id', ids.company).update({ early_pay_discount_loss_account_id: loss });
    }
  });

  test('only a term of one due term of 100 % offers a discount', async () => {
    const split = (await app.knex('accounts_payment_terms').where('name', '30% Now, Balance 60 Days').first('id')).id;
    const turnedOn = await put(`/accounts/payment-terms/${split}`, { early_discount: true });
    assert.is(turnedOn.status, 422, turnedOn.text);
    assert.equal(turnedOn.body.errors.early_discount, ['The Early Payment Discount functionality can only be used with payment terms using a single 100% line.']);
    const added = await post(`/accounts/payment-terms/${ids.included}/due-terms`, { value: 'percent', value_amount: 50, delay_type: 'days_after', nb_days: 60 });
    assert.is(added.status, 422, added.text);
    const [due] = (await app.client.get(`${API}/accounts/payment-terms/${ids.included}/due-terms`, { token: app.token })).body.data;
    const halved = await put(`/accounts/payment-terms/${ids.included}/due-terms/${due.id}`, { value_amount: 50 });
    assert.is(halved.status, 422, halved.text);
    assert.ok(halved.body.errors.value_amount);
    const zero = await put(`/accounts/payment-terms/${ids.included}`, { discount_percentage: 0 });
    assert.is(zero.status, 422, zero.text);
    assert.equal((await app.knex('accounts_payment_due_terms').where('payment_id', ids.included)).length, 1, 'nothing written');
  });
  test.run();
}
