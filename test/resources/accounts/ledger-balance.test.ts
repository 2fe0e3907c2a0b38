// The accounting ledger's invariants after a random walk through documents and their actions
// (create, update, confirm, pay, reverse, reset to draft, cancel): every move's debits equal its
// credits, a document's residual is what its receivable/payable lines still owe, never more than
// its total, and its payment state says the same. The walk is seeded (FAST_CHECK_SEED, or the
// date), so a failure names the seed that reproduces it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const SEED = Number(process.env.FAST_CHECK_SEED ?? (process.env.CI ? 20261127 : Date.now() % 2 ** 31));
const STEPS = 60;

/** A small deterministic generator (mulberry32). */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

for (const target of databaseTargets()) {
  const test = suite(`ledger balance [${target.name}]`);
  let app: TestApp & { token: string };
  const ids: Record<string, any> = {};

  test.before(async () => {
    app = await sharedApp(target);
    const category = (await app.knex('products_categories').orderBy('id').first('id')).id;
    const post = async (path: string, body: unknown) => (await app.client.post(`${API}${path}`, { token: app.token, body })).body.data;
    ids.product = (await post('/products/products', { type: 'service', name: `Ledger service ${target.name}`, price: 10, category_id: category })).id;
    ids.uom = (await app.knex('products_products').where('id', ids.product).first('uom_id')).uom_id;
    ids.partner = (await post('/partners/partners', { account_type: 'company', name: `Ledger partner ${target.name}` })).id;
    ids.currency = (await app.knex('companies').orderBy('id').first('currency_id')).currency_id;
    ids.taxes = [
      (await post('/accounts/taxes', { name: `Ledger 7.5% ${target.name}`, type_tax_use: 'sale', amount_type: 'percent', amount: 7.5 })).id,
      (await post('/accounts/taxes', { name: `Ledger incl 20% ${target.name}`, type_tax_use: 'sale', amount_type: 'percent', amount: 20, price_include: true })).id,
      (await post('/accounts/taxes', { name: `Ledger fixed ${target.name}`, type_tax_use: 'purchase', amount_type: 'fixed', amount: 0.35 })).id,
    ];
    // The company's terms (other suites add terms of other companies, which a document refuses).
    const company = (await app.knex('companies').orderBy('id').first('id')).id;
    ids.terms = (
      await app
        .knex('accounts_payment_terms')
        .whereNull('deleted_at')
        .where((q) => q.where('company_id', company).orWhereNull('company_id'))
        .pluck('id')
    ).map(Number);
    ids.rounding = (await post('/accounts/cash-roundings', { name: `Ledger 0.05 ${target.name}`, strategy: 'add_invoice_line', rounding_method: 'HALF-UP', rounding: 0.05 })).id;
  });

  test(`a random walk of ${STEPS} actions keeps every move balanced and every residual true (seed ${SEED})`, async () => {
    const rand = random(SEED);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
    const documents: Array<{ id: number; path: string }> = [];
    const lines = () =>
      Array.from({ length: 1 + Math.floor(rand() * 4) }, () => ({
        product_id: ids.product,
        uom_id: ids.uom,
        quantity: Math.round(rand() * 700 + 1) / 100,
        price_unit: Math.round(rand() * 50000) / 100,
        discount: pick([0, 0, 5, 12.5]),
        taxes: rand() < 0.6 ? [pick(ids.taxes)] : [],
      }));
    const header = () => ({
      partner_id: ids.partner,
      currency_id: ids.currency,
      invoice_date: '2026-11-20',
      ...(rand() < 0.5 ? { invoice_payment_term_id: pick(ids.terms) } : { invoice_date_due: '2026-12-31' }),
      ...(rand() < 0.3 ? { invoice_cash_rounding_id: ids.rounding } : {}),
      invoice_lines: lines(),
    });
    const log: string[] = [];
    // Only what this walk writes: other suites leave documents in states set straight in the table.
    const from = Number((await app.knex('accounts_account_moves').max({ id: 'id' }).first())?.id ?? 0) + 1;
    for (let step = 0; step < STEPS; step++) {
      const existing = documents.length > 0 && rand() < 0.8 ? pick(documents) : undefined;
      if (!existing) {
        const path = pick(['/accounts/invoices', '/accounts/bills', '/accounts/credit-notes', '/accounts/refunds']);
        const response = await app.client.post(`${API}${path}`, { token: app.token, body: header() });
        assert.is(response.status, 201, response.text);
        documents.push({ id: response.body.data.id, path });
        log.push(`create ${path} ${response.body.data.id}`);
      } else {
        const current = (await app.client.get(`${API}${existing.path}/${existing.id}`, { token: app.token })).body.data;
        const action = pick(['confirm', 'pay', 'pay', 'reverse', 'reset-to-draft', 'cancel', 'update']);
        let response: { status: number; text: string; body: any };
        if (action === 'update') response = await app.client.put(`${API}${existing.path}/${existing.id}`, { token: app.token, body: { invoice_lines: lines() } });
        else {
          const amount = Math.max(0.01, Math.round(Number(current.amount_residual) * rand() * 100) / 100);
          const body = action === 'pay' && rand() < 0.6 ? { amount } : {};
          response = await app.client.post(`${API}${existing.path}/${existing.id}/${action}`, { token: app.token, body });
        }
        log.push(`${action} ${existing.path} ${existing.id}: ${response.status}`);
        assert.ok([200, 201, 404, 422].includes(response.status), `${log.join('\n')}\n${response.text}`);
        if (action === 'reverse' && response.status === 201) {
          documents.push({ id: response.body.data.id, path: existing.path === '/accounts/invoices' ? '/accounts/credit-notes' : '/accounts/refunds' });
        }
      }
      await assertLedger(app, log, from);
    }
  });

  test.run();
}

async function assertLedger(app: TestApp, log: string[], from: number): Promise<void> {
  const context = () => `after:\n${log.slice(-8).join('\n')}`;
  const sums: Array<Record<string, any>> = await app
    .knex('accounts_account_move_lines')
    .where('move_id', '>=', from)
    .groupBy('move_id')
    .select('move_id')
    .sum({ debit: 'debit', credit: 'credit' });
  for (const row of sums) assert.ok(Math.abs(Number(row.debit) - Number(row.credit)) < 0.00005, `move ${row.move_id}: debits ${row.debit} ≠ credits ${row.credit}; ${context()}`);
  const moves = await app.knex('accounts_account_moves').where('id', '>=', from).whereNot('move_type', 'entry');
  const terms = await app
    .knex('accounts_account_move_lines')
    .where('move_id', '>=', from)
    .where('display_type', 'payment_term')
    .select('move_id', 'amount_residual_currency', 'amount_currency');
  for (const move of moves) {
    const own = terms.filter((line) => Number(line.move_id) === Number(move.id));
    const direction = ['out_invoice', 'in_refund'].includes(move.move_type) ? -1 : 1;
    const residual = -direction * own.reduce((sum, line) => sum + Number(line.amount_residual_currency), 0);
    assert.ok(Math.abs(residual - Number(move.amount_residual)) < 0.00005, `move ${move.id}: residual ${move.amount_residual} ≠ ${residual}; ${context()}`);
    assert.ok(Number(move.amount_residual) >= 0 && Number(move.amount_residual) <= Number(move.amount_total) + 0.00005, `move ${move.id}: residual within the total; ${context()}`);
    for (const line of own) {
      assert.ok(Math.sign(Number(line.amount_residual_currency)) * Math.sign(Number(line.amount_currency)) >= 0, `move ${move.id}: a line never owes the other way; ${context()}`);
    }
    if (move.state === 'posted') {
      const expected = Number(move.amount_residual) === 0 ? ['paid', 'reversed'] : Number(move.amount_residual) < Number(move.amount_total) ? ['partial'] : ['not_paid'];
      if (Number(move.amount_total) > 0)
        assert.ok(expected.includes(move.payment_state), `move ${move.id}: ${move.payment_state} with residual ${move.amount_residual}/${move.amount_total}; ${context()}`);
    } else assert.is(move.payment_state, 'not_paid', `move ${move.id} (${move.state}) is not paid; ${context()}`);
  }
}
