// How a document's total is split into instalments by its payment term's due terms.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instalments } from '../../../src/behaviours/accounts/moves/instalments.ts';
import { roundCash } from '../../../src/behaviours/accounts/money.ts';

const term = (value: string, value_amount: number, nb_days = 0, delay_type = 'days_after') => ({ value, value_amount, delay_type, nb_days });

test('without a term: one instalment, due on the due date', () => {
  assert.equal(instalments(100, 0.01, '2026-11-20', [], '2026-12-01'), [{ maturity: '2026-12-01', amount: 100 }]);
});

test('30 % now and the rest in 60 days: the last takes what remains', () => {
  assert.equal(instalments(333.33, 0.01, '2026-11-20', [term('percent', 30), term('percent', 70, 60)]), [
    { maturity: '2026-11-20', amount: 100 },
    { maturity: '2027-01-19', amount: 233.33 },
  ]);
});

test('terms adding up to more than the total never owe back: the later ones are left out', () => {
  assert.equal(instalments(50, 0.01, '2026-11-20', [term('fixed', 80), term('percent', 100, 30)]), [{ maturity: '2026-11-20', amount: 50 }]);
  assert.equal(instalments(100, 0.01, '2026-11-20', [term('percent', 100), term('percent', 30, 30)]), [{ maturity: '2026-11-20', amount: 100 }]);
});

test('each instalment at the currency step: 30 % of 0.10 in a 0.05 currency is 0.05, the rest 0.05', () => {
  // 30 % of 0.10 = 0.03: 0.6 steps of 0.05 → 0.05.
  assert.equal(instalments(0.1, 0.05, '2026-11-20', [term('percent', 30), term('percent', 70, 60)]), [
    { maturity: '2026-11-20', amount: 0.05 },
    { maturity: '2027-01-19', amount: 0.05 },
  ]);
});

test('with a cash rounding each instalment can be paid in cash; the last takes the remainder', () => {
  // 30 % of 33.35 = 10.005 → 10.01 → to 0.05 half up: 200.2 steps → 10.00; the rest 23.35 (not 10.01 and 23.34).
  const cash = { rounding: '0.0500', rounding_method: 'HALF-UP' };
  assert.equal(instalments(33.35, 0.01, '2026-11-20', [term('percent', 30), term('percent', 70, 60)], null, cash), [
    { maturity: '2026-11-20', amount: 10 },
    { maturity: '2027-01-19', amount: 23.35 },
  ]);
  // UP: 10.01 → 10.05; DOWN: 10.00. A credit note's negative total rounds the same way, away from zero or toward it.
  assert.equal(
    instalments(33.35, 0.01, '2026-11-20', [term('percent', 30), term('percent', 70)], null, { rounding: 0.05, rounding_method: 'UP' }).map((part) => part.amount),
    [10.05, 23.3],
  );
  assert.equal(
    instalments(-33.35, 0.01, '2026-11-20', [term('percent', 30), term('percent', 70)], null, { rounding: 0.05, rounding_method: 'DOWN' }).map((part) => part.amount),
    [-10, -23.35],
  );
  assert.equal([roundCash(100.02, 0.05, 'HALF-UP'), roundCash(100.02, 0.05, 'UP'), roundCash(100.07, 0.05, 'DOWN'), roundCash(-0.01, 0.05, 'UP')], [100, 100.05, 100.05, -0.05]);
});

test('end of month and end of next month', () => {
  assert.equal(instalments(10, 0.01, '2026-01-31', [term('percent', 100, 10, 'days_after_end_of_next_month')]), [{ maturity: '2026-03-10', amount: 10 }]);
  assert.equal(instalments(10, 0.01, '2026-02-10', [term('percent', 100, 0, 'days_after_end_of_month')]), [{ maturity: '2026-02-28', amount: 10 }]);
});

test.run();
