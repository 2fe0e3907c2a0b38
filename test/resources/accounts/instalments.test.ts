// How a document's total is split into instalments by its payment term's due terms.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instalments } from '../../../src/behaviours/accounts/moves/instalments.ts';

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

test('end of month and end of next month', () => {
  assert.equal(instalments(10, 0.01, '2026-01-31', [term('percent', 100, 10, 'days_after_end_of_next_month')]), [{ maturity: '2026-03-10', amount: 10 }]);
  assert.equal(instalments(10, 0.01, '2026-02-10', [term('percent', 100, 0, 'days_after_end_of_month')]), [{ maturity: '2026-02-28', amount: 10 }]);
});

test.run();
