import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatDate, formatDecimal, formatTimestamp } from '../../engine/serialize/value-formats.ts';

const test = suite('formats');

test('timestamps come out in UTC with microseconds and Z', () => {
  assert.is(formatTimestamp('2025-01-31 09:30:00.123000'), '2025-01-31T09:30:00.123000Z');
  assert.is(formatTimestamp('2025-01-31 09:30:00'), '2025-01-31T09:30:00.000000Z');
  assert.is(formatTimestamp(new Date(Date.UTC(2025, 0, 31, 9, 30, 0, 5))), '2025-01-31T09:30:00.005000Z');
  assert.is(formatTimestamp(null), null);
});

test('every form of timestamp text comes out the same, also one after another', () => {
  const cases: Array<[string, string]> = [
    ['2025-01-31 09:30:00.123456', '2025-01-31T09:30:00.123456Z'],
    ['2025-01-31 09:30:00.123456', '2025-01-31T09:30:00.123456Z'], // the same text again
    ['2025-01-31 09:30:01', '2025-01-31T09:30:01.000000Z'],
    ['2025-01-31T09:30:00.5', '2025-01-31T09:30:00.500000Z'],
    ['2025-01-31 09:30:00.1234567', '2025-01-31T09:30:00.123456Z'],
    ['2025-01-31', '2025-01-31T00:00:00.000000Z'],
    ['2025-01-31 09:30:01', '2025-01-31T09:30:01.000000Z'],
    ['not a time', 'not a time'],
    ['2025-01-31 09:30:00.123456', '2025-01-31T09:30:00.123456Z'],
  ];
  for (const [stored, expected] of cases) assert.is(formatTimestamp(stored), expected, stored);
});

test('dates come out as midnight UTC', () => {
  assert.is(formatDate('2025-01-31'), '2025-01-31T00:00:00.000000Z');
});

test('decimals keep their scale whatever the driver returns', () => {
  assert.is(formatDecimal('0.0100', 4), '0.0100');
  assert.is(formatDecimal(0.01, 4), '0.0100');
  assert.is(formatDecimal(1.25, 6), '1.250000');
  assert.is(formatDecimal('12', 2), '12.00');
  assert.is(formatDecimal(null, 2), null);
});

test('decimals: signs, rounding and text with more or fewer places', () => {
  assert.is(formatDecimal('-3.50', 2), '-3.50');
  assert.is(formatDecimal('-.5', 2), '-0.50');
  assert.is(formatDecimal('3.456', 2), '3.46');
  assert.is(formatDecimal('3.4', 2), '3.40');
  assert.is(formatDecimal('7', 0), '7');
  assert.is(formatDecimal(-0.001, 2), '-0.00');
  assert.is(formatDecimal(1000000, 4), '1000000.0000');
  assert.is(formatDecimal(2.5, 0), '3');
});

test.run();
