import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatDate, formatDecimal, formatTimestamp } from '../../engine/serialize/formats.ts';

const test = suite('formats');

test('timestamps come out in UTC with microseconds and Z', () => {
  assert.is(formatTimestamp('2025-01-31 09:30:00.123000'), '2025-01-31T09:30:00.123000Z');
  assert.is(formatTimestamp('2025-01-31 09:30:00'), '2025-01-31T09:30:00.000000Z');
  assert.is(formatTimestamp(new Date(Date.UTC(2025, 0, 31, 9, 30, 0, 5))), '2025-01-31T09:30:00.005000Z');
  assert.is(formatTimestamp(null), null);
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

test.run();
