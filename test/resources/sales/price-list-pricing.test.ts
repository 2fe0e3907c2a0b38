import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { priceFromRules, type PriceRule } from '../../../src/behaviours/sales/price-list-pricing.ts';

const test = suite('price list pricing');
const chair = { id: 7, price: 100, cost: 60, categoryIds: [3, 1] };
const rule = (overrides: Partial<PriceRule>): PriceRule => ({
  productId: null,
  categoryId: null,
  minQuantity: 0,
  computePrice: 'fixed',
  fixedPrice: null,
  percentPrice: null,
  base: 'list_price',
  priceDiscount: null,
  priceSurcharge: null,
  firstDay: null,
  lastDay: null,
  ...overrides,
});

test('without a rule the product keeps its sales price', () => {
  assert.is(priceFromRules(chair, 1, '2025-05-01', []), 100);
  assert.is(priceFromRules(chair, 1, '2025-05-01', [rule({ productId: 8, fixedPrice: 1 })]), 100);
});

test('the product rule wins over the category rule, which wins over the global one', () => {
  const rules = [rule({ computePrice: 'percentage', percentPrice: 10 }), rule({ categoryId: 1, fixedPrice: 80 }), rule({ categoryId: 3, fixedPrice: 85 })];
  assert.is(priceFromRules(chair, 1, '2025-05-01', rules), 85, 'the nearest category');
  assert.is(priceFromRules(chair, 1, '2025-05-01', [...rules, rule({ productId: 7, fixedPrice: 70 })]), 70);
  assert.is(priceFromRules({ ...chair, categoryIds: [9] }, 1, '2025-05-01', rules), 90, 'the global percentage');
});

test('quantity breaks and dates', () => {
  const rules = [
    rule({ productId: 7, fixedPrice: 95 }),
    rule({ productId: 7, minQuantity: 10, fixedPrice: 90 }),
    rule({ productId: 7, minQuantity: 10, fixedPrice: 50, lastDay: '2025-01-31' }),
  ];
  assert.is(priceFromRules(chair, 5, '2025-05-01', rules), 95);
  assert.is(priceFromRules(chair, 10, '2025-05-01', rules), 90);
  assert.is(priceFromRules(chair, 10, '2025-01-15', rules) < 95, true);
});

test('formula: a discount on the sales price or the cost, plus a surcharge', () => {
  assert.is(priceFromRules(chair, 1, '2025-05-01', [rule({ computePrice: 'formula', priceDiscount: 20, priceSurcharge: 5 })]), 85);
  assert.is(priceFromRules(chair, 1, '2025-05-01', [rule({ computePrice: 'formula', base: 'standard_price', priceSurcharge: 10 })]), 70);
});

test.run();
