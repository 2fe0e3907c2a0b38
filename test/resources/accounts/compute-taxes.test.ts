// The line amounts a bookkeeper computes by hand.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { computeLine, type TaxRule } from '../../../src/behaviours/accounts/compute-taxes.ts';
import { roundTo } from '../../../src/behaviours/accounts/money.ts';

const test = suite('tax computation');
const vat15: TaxRule = { id: 1, amountType: 'percent', amount: 15, priceInclude: false };
const vat20Included: TaxRule = { id: 2, amountType: 'percent', amount: 20, priceInclude: true };
const eco: TaxRule = { id: 3, amountType: 'fixed', amount: 0.5, priceInclude: false };

test('rounding is half away from zero at the currency precision', () => {
  assert.is(roundTo(1.005, 2), 1.01);
  assert.is(roundTo(2.675, 2), 2.68);
  assert.is(roundTo(-1.005, 2), -1.01);
  assert.is(roundTo(1234.5, 0), 1235);
});

test('no taxes: subtotal = total = price × quantity with the discount', () => {
  assert.equal(computeLine({ priceUnit: 19.99, quantity: 3, discount: 10, taxes: [], precision: 2 }), { subtotal: 53.97, tax: 0, total: 53.97, taxes: [] });
});

test('a percent tax is added to the price', () => {
  assert.equal(computeLine({ priceUnit: 100, quantity: 2, discount: 0, taxes: [vat15], precision: 2 }), {
    subtotal: 200,
    tax: 30,
    total: 230,
    taxes: [{ id: 1, amount: 30 }],
  });
});

test('a tax included in the price is taken out of it; the total stays the quoted price', () => {
  const line = computeLine({ priceUnit: 120, quantity: 1, discount: 0, taxes: [vat20Included], precision: 2 });
  assert.equal(line, { subtotal: 100, tax: 20, total: 120, taxes: [{ id: 2, amount: 20 }] });
  const odd = computeLine({ priceUnit: 9.99, quantity: 3, discount: 0, taxes: [vat20Included], precision: 2 });
  assert.is(odd.total, 29.97);
  assert.is(roundTo(odd.subtotal + odd.tax, 2), 29.97);
  assert.is(odd.tax, 5);
});

test('fixed taxes count per unit; several taxes add up', () => {
  const line = computeLine({ priceUnit: 10, quantity: 4, discount: 25, taxes: [vat15, eco], precision: 2 });
  assert.equal(line, {
    subtotal: 30,
    tax: 6.5,
    total: 36.5,
    taxes: [
      { id: 1, amount: 4.5 },
      { id: 3, amount: 2 },
    ],
  });
});

test('a currency without decimals rounds to units', () => {
  assert.equal(computeLine({ priceUnit: 333, quantity: 1, discount: 0, taxes: [vat15], precision: 0 }), { subtotal: 333, tax: 50, total: 383, taxes: [{ id: 1, amount: 50 }] });
});

test.run();
