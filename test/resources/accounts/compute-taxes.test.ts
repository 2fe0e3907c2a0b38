// The tax computation (src/behaviours/accounts/compute-taxes.ts), on amounts a bookkeeper works out
// by hand from the reference's formulas (reference-o2c-p2p §2.7); each case says its arithmetic.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { computeDocument, computeLine, flattenTaxes, spread, type LineInput, type Rounding, type TaxRule } from '../../../src/behaviours/accounts/compute-taxes.ts';
import { decimalsOf, roundStep, roundTo, stepOf } from '../../../src/behaviours/accounts/money.ts';

const test = suite('tax computation');
const cents: Rounding = { step: 0.01 };
let nextId = 1;
const tax = (amountType: TaxRule['amountType'], amount: number, more: Partial<TaxRule> = {}): TaxRule => ({ id: nextId++, amountType, amount, priceInclude: false, ...more });
const line = (priceUnit: number, taxes: TaxRule[], more: Partial<LineInput> = {}): LineInput => ({ priceUnit, quantity: 1, discount: 0, taxes, ...more });
/** subtotal, tax, total and each tax's amount: what the tests compare. */
const amounts = (input: LineInput, rounding: Rounding = cents) => {
  const result = computeLine(input, rounding);
  return { subtotal: result.subtotal, tax: result.tax, total: result.total, taxes: result.taxes.map((item) => item.amount) };
};

const vat15 = tax('percent', 15);
const vat20Included = tax('percent', 20, { priceInclude: true });
const eco = tax('fixed', 0.5);

test('rounding is half away from zero, at decimal places or at any step', () => {
  assert.is(roundTo(1.005, 2), 1.01);
  assert.is(roundTo(2.675, 2), 2.68);
  assert.is(roundTo(-1.005, 2), -1.01);
  assert.is(roundTo(1234.5, 0), 1235);
  // 0.77 is 15.4 steps of 0.05 → 15 steps; 0.825 is 16.5 steps → 17; 0.15 is 3 steps (no 0.15000000000000002).
  assert.equal([roundStep(0.77, 0.05), roundStep(0.825, 0.05), roundStep(-0.825, 0.05), roundStep(0.15, 0.05)], [0.75, 0.85, -0.85, 0.15]);
  assert.equal([roundStep(1.005, 0.01), roundStep(49.95, 1), roundStep(12.5, 5), roundStep(1.23456, 0)], [1.01, 50, 15, 1.23456]);
  assert.equal([decimalsOf(0.01), decimalsOf(0.05), decimalsOf(0.5), decimalsOf(1), decimalsOf(0.001)], [2, 2, 1, 0, 3]);
  assert.equal([stepOf({ rounding: '0.050000', decimal_places: 2 }), stepOf({ rounding: 0, decimal_places: 3 }), stepOf(undefined)], [0.05, 0.001, 0.01]);
});

test('no taxes: subtotal = total = price × quantity with the discount', () => {
  // 19.99 × 3 × 0.9 = 53.973 → 53.97
  assert.equal(amounts(line(19.99, [], { quantity: 3, discount: 10 })), { subtotal: 53.97, tax: 0, total: 53.97, taxes: [] });
});

test('a percent tax is added to the price; fixed taxes count per unit, with the sign of the price', () => {
  assert.equal(amounts(line(100, [vat15], { quantity: 2 })), { subtotal: 200, tax: 30, total: 230, taxes: [30] });
  // 10 × 4 × 0.75 = 30; 15 % of 30 = 4.50; 0.50 × 4 = 2
  assert.equal(amounts(line(10, [vat15, eco], { quantity: 4, discount: 25 })), { subtotal: 30, tax: 6.5, total: 36.5, taxes: [4.5, 2] });
  // A discount line: −10 × 2; the fixed tax takes its sign.
  assert.equal(amounts(line(-10, [eco], { quantity: 2 })), { subtotal: -20, tax: -1, total: -21, taxes: [-1] });
});

test('a tax included in the price is taken out of it; the total stays the quoted price', () => {
  // 120 / 1.2 = 100
  assert.equal(amounts(line(120, [vat20Included])), { subtotal: 100, tax: 20, total: 120, taxes: [20] });
  // 29.97 / 1.2 × 0.2 = 4.995 → 5.00; 29.97 − 5.00 = 24.97
  assert.equal(amounts(line(9.99, [vat20Included], { quantity: 3 })), { subtotal: 24.97, tax: 5, total: 29.97, taxes: [5] });
});

test('price-included percent taxes of one batch are divided out together', () => {
  // 230 / (1 + 0.10 + 0.05) = 200: 10 % of it is 20, 5 % is 10.
  const ten = tax('percent', 10, { priceInclude: true, sort: 1 });
  const five = tax('percent', 5, { priceInclude: true, sort: 2 });
  assert.equal(amounts(line(230, [ten, five])), { subtotal: 200, tax: 30, total: 230, taxes: [20, 10] });
});

test('division: price included is the price × amount/100; price excluded is base × amount/100 ÷ (1 − amount/100)', () => {
  const included = tax('division', 10, { priceInclude: true });
  // 10 % of the taxed price 100 is 10, and the base is 90 (not 100 / 1.1 = 90.91 as a percent tax would give).
  assert.equal(amounts(line(100, [included])), { subtotal: 90, tax: 10, total: 100, taxes: [10] });
  const excluded = tax('division', 10);
  // 90 × 0.10 / 0.90 = 10: the tax is 10 % of the taxed price 100.
  assert.equal(amounts(line(90, [excluded])), { subtotal: 90, tax: 10, total: 100, taxes: [10] });
  // Two excluded division taxes of one batch: 80 × 0.10 / (1 − 0.20) = 10 each, the total 100.
  assert.equal(amounts(line(80, [tax('division', 10, { sort: 1 }), tax('division', 10, { sort: 2 })])), { subtotal: 80, tax: 20, total: 100, taxes: [10, 10] });
  // An included percent tax before an included division tax: 100 × 0.10 = 10 first, then (100 − 10) / 1.1 × 0.10 = 8.18.
  assert.equal(amounts(line(100, [tax('percent', 10, { priceInclude: true, sort: 1 }), tax('division', 10, { priceInclude: true, sort: 2 })])), {
    subtotal: 81.82,
    tax: 18.18,
    total: 100,
    taxes: [8.18, 10],
  });
});

test('include_base_amount: the taxes after it apply on the base plus it (a cascade)', () => {
  const first = tax('percent', 10, { includeBaseAmount: true, sort: 1 });
  const second = tax('percent', 20, { sort: 2 });
  // 10 % of 100 = 10; 20 % of 110 = 22.
  assert.equal(amounts(line(100, [second, first])), { subtotal: 100, tax: 32, total: 132, taxes: [10, 22] });
  const result = computeLine(line(100, [first, second]), cents);
  assert.equal(
    result.taxes.map((item) => item.base),
    [100, 110],
  );
  // A tax not affected by earlier ones (is_base_affected false) keeps the price as its base: 20 % of 100.
  const unaffected = tax('percent', 20, { sort: 2, isBaseAffected: false });
  assert.equal(amounts(line(100, [first, unaffected])), { subtotal: 100, tax: 30, total: 130, taxes: [10, 20] });
  // A fixed eco-tax that raises the base of the VAT after it: 3 × 50 = 150; 3 × 2 = 6; 20 % of 156 = 31.20.
  const ecoTax = tax('fixed', 2, { includeBaseAmount: true, sort: 1 });
  assert.equal(amounts(line(50, [ecoTax, second], { quantity: 3 })), { subtotal: 150, tax: 37.2, total: 187.2, taxes: [6, 31.2] });
});

test('mixed: an included tax leaves the base of an excluded one, unless it raises its base', () => {
  const included = tax('percent', 10, { priceInclude: true, sort: 1 });
  const excluded = tax('percent', 5, { sort: 2 });
  // 110 / 1.1 = 100: the included tax is 10, the excluded one 5 % of 100.
  assert.equal(amounts(line(110, [included, excluded])), { subtotal: 100, tax: 15, total: 115, taxes: [10, 5] });
  // The same, the excluded one first: still on 100.
  assert.equal(amounts(line(110, [tax('percent', 5, { sort: 0 }), included])), { subtotal: 100, tax: 15, total: 115, taxes: [5, 10] });
  // include_base_amount on the included one: the excluded tax applies on the price 110: 5.50.
  const raising = tax('percent', 10, { priceInclude: true, includeBaseAmount: true, sort: 1 });
  assert.equal(amounts(line(110, [raising, excluded])), { subtotal: 100, tax: 15.5, total: 115.5, taxes: [10, 5.5] });
  // A fixed included tax and a percent included one: 112 − 2 = 110; 110 / 1.1 = 100.
  assert.equal(amounts(line(112, [tax('fixed', 2, { priceInclude: true, sort: 1 }), tax('percent', 10, { priceInclude: true, sort: 2 })])), {
    subtotal: 100,
    tax: 12,
    total: 112,
    taxes: [2, 10],
  });
});

test('a group tax is replaced by its children, in their order, each tax once', () => {
  const state = tax('percent', 5, { sort: 2 });
  const federal = tax('percent', 10, { sort: 1 });
  const group = tax('group', 0, { sort: 3, children: [state, federal] });
  const result = computeLine(line(200, [group]), cents);
  // 10 % of 200 = 20, then 5 % of 200 = 10.
  assert.equal(
    result.taxes.map((item) => [item.tax.id, item.group?.id, item.amount]),
    [
      [federal.id, group.id, 20],
      [state.id, group.id, 10],
    ],
  );
  assert.equal([result.subtotal, result.tax, result.total], [200, 30, 230]);
  // The group's place in the order is its own sort; a child also given alone counts once.
  const early = tax('percent', 1, { sort: 0 });
  assert.equal(
    flattenTaxes([group, early, federal]).map(({ tax: one }) => one.id),
    [early.id, federal.id, state.id],
  );
  // A group inside a group is never applied.
  assert.equal(flattenTaxes([tax('group', 0, { children: [group] })]), []);
});

test('repartition: each share rounded, the rounding error on the largest; a negative share books the opposite', () => {
  const shares = (factors: number[]) => factors.map((factor, index) => ({ id: index + 1, factor, accountId: 100 + index }));
  // 30 % and 70 % of 0.05: 0.015 → 0.02 and 0.035 → 0.04 make 0.06; the largest gives the cent back.
  assert.equal(
    spread(0.05, shares([0.3, 0.7]), 0.01).map((item) => item.amount),
    [0.02, 0.03],
  );
  // Reverse charge: +100 % and −100 % of 21 % of 100; the line costs its price.
  const reverse = tax('percent', 21, { invoiceShares: shares([1, -1]) });
  const result = computeLine(line(100, [reverse]), cents);
  assert.equal([result.subtotal, result.tax, result.total], [100, 0, 100]);
  assert.equal(
    result.taxes[0]!.shares.map((item) => [item.share.accountId, item.amount]),
    [
      [100, 21],
      [101, -21],
    ],
  );
  // The refund set serves credit notes and refunds.
  const split = tax('percent', 10, { invoiceShares: shares([1]), refundShares: shares([0.5, 0.5]) });
  assert.equal(
    computeLine(line(100, [split]), { step: 0.01, refund: true }).taxes[0]!.shares.map((item) => item.amount),
    [5, 5],
  );
});

test('round per line or globally: three lines of 1.05 at 15 % differ by a cent', () => {
  const lines = [1, 2, 3].map((key) => ({ key, ...line(1.05, [vat15]), accountId: 400 }));
  // Per line: 0.1575 → 0.16, three times: 0.48.
  const perLine = computeDocument(lines, { step: 0.01, mode: 'round_per_line' });
  assert.equal([perLine.untaxed, perLine.tax, perLine.total], [3.15, 0.48, 3.63]);
  // Globally: 3 × 0.1575 = 0.4725 → 0.47.
  const globally = computeDocument(lines, { step: 0.01, mode: 'round_globally' });
  assert.equal([globally.untaxed, globally.tax, globally.total], [3.15, 0.47, 3.62]);
  assert.equal(
    globally.taxLines.map((taxLine) => [taxLine.tax.id, taxLine.accountId, taxLine.amount, taxLine.base]),
    [[vat15.id, 400, 0.47, 3.15]],
  );
});

test('rounded globally, taxes included in the price still leave the price: subtotal + tax = 3 × 10.00', () => {
  const included = tax('percent', 15, { priceInclude: true });
  const lines = [1, 2, 3].map((key) => ({ key, ...line(10, [included]) }));
  // 10 / 1.15 = 8.6957 → 8.70 each; the tax takes the rest, 1.30, so 3.90 and not round(3 × 1.3043) = 3.91.
  for (const mode of ['round_per_line', 'round_globally'] as const) {
    const document = computeDocument(lines, { step: 0.01, mode });
    assert.equal([document.untaxed, document.tax, document.total], [26.1, 3.9, 30], mode);
  }
});

test('rounded globally, a tax spread over two accounts adds up to its rounded whole', () => {
  const split = tax('percent', 10, {
    invoiceShares: [
      { id: 1, factor: 0.5, accountId: 1 },
      { id: 2, factor: 0.5, accountId: 2 },
    ],
  });
  // 10 % of 0.15 = 0.015 a line, 0.0075 a share; three lines: 0.0225 a share → 0.02 each, but the
  // tax is 0.045 → 0.05: the largest (the first) share takes the cent.
  const lines = [1, 2, 3].map((key) => ({ key, ...line(0.15, [split]) }));
  const document = computeDocument(lines, { step: 0.01, mode: 'round_globally' });
  assert.equal(
    document.taxLines.map((taxLine) => [taxLine.accountId, taxLine.amount]),
    [
      [1, 0.03],
      [2, 0.02],
    ],
  );
  assert.is(document.tax, 0.05);
});

test('a currency rounded to 0.05: the base and each tax at five cents, half up', () => {
  const step: Rounding = { step: 0.05 };
  // 3 × 3.33 = 9.99 → 10.00; 7.5 % of 10.00 = 0.75.
  assert.equal(amounts(line(3.33, [tax('percent', 7.5)], { quantity: 3 }), step), { subtotal: 10, tax: 0.75, total: 10.75, taxes: [0.75] });
  // 7.5 % of 11 = 0.825: 16.5 steps → 17: 0.85.
  assert.equal(amounts(line(11, [tax('percent', 7.5)]), step), { subtotal: 11, tax: 0.85, total: 11.85, taxes: [0.85] });
  // 7.7 % of 10 = 0.77: 15.4 steps → 0.75.
  assert.equal(amounts(line(10, [tax('percent', 7.7)]), step), { subtotal: 10, tax: 0.75, total: 10.75, taxes: [0.75] });
});

test('a currency without decimals rounds to units', () => {
  // 15 % of 333 = 49.95 → 50.
  assert.equal(amounts(line(333, [vat15]), { step: 1 }), { subtotal: 333, tax: 50, total: 383, taxes: [50] });
});

test('tax lines: one per tax, group, repartition line and account; none that rounds to zero', () => {
  const onAccount = tax('percent', 15, { invoiceShares: [{ id: 7, factor: 1, accountId: 251 }] });
  const onLine = tax('percent', 0.001);
  const document = computeDocument(
    [
      { key: 'a', ...line(100, [onAccount, onLine]), accountId: 400 },
      { key: 'b', ...line(50, [onAccount]), accountId: 401 },
    ],
    cents,
  );
  // 15 on 100 and 7.50 on 50 on the tax's account; 0.001 % of 100 rounds to nothing.
  assert.equal(
    document.taxLines.map((taxLine) => [taxLine.tax.id, taxLine.share.id, taxLine.accountId, taxLine.amount, taxLine.base]),
    [[onAccount.id, 7, 251, 22.5, 150]],
  );
  assert.equal([document.untaxed, document.tax, document.total], [150, 22.5, 172.5]);
});

test.run();
