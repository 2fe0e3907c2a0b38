// The periods a date filter names (engine/calendar/periods.ts) and the instant a zone's day starts
// (engine/calendar/zone-offsets.ts), where the clocks change at midnight too.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dayAfter, parseDaySpan } from '../../engine/calendar/periods.ts';
import { localDayStart } from '../../engine/calendar/zone-offsets.ts';

test('a period is the days of a grouped total’s key: day, ISO week, month, quarter, year', () => {
  assert.equal(parseDaySpan('2026-12-05'), { first: '2026-12-05', last: '2026-12-05' });
  assert.equal(parseDaySpan('2026-W49'), { first: '2026-11-30', last: '2026-12-06' });
  assert.equal(parseDaySpan('2026-W01'), { first: '2025-12-29', last: '2026-01-04' }, 'week 1 holds the year’s first Thursday');
  assert.equal(parseDaySpan('2026-W53'), { first: '2026-12-28', last: '2027-01-03' }, '2026 starts on a Thursday: 53 ISO weeks');
  assert.equal(parseDaySpan('2025-W53'), undefined, '2025 has 52');
  assert.equal(parseDaySpan('2026-W00'), undefined);
  assert.equal(parseDaySpan('2020-W53'), { first: '2020-12-28', last: '2021-01-03' }, 'a leap year that starts on a Wednesday has 53');
  assert.equal(parseDaySpan('2026-02'), { first: '2026-02-01', last: '2026-02-28' });
  assert.equal(parseDaySpan('2024-02'), { first: '2024-02-01', last: '2024-02-29' });
  assert.equal(parseDaySpan('2026-Q1'), { first: '2026-01-01', last: '2026-03-31' });
  assert.equal(parseDaySpan('2026-Q4'), { first: '2026-10-01', last: '2026-12-31' });
  assert.equal(parseDaySpan('2026'), { first: '2026-01-01', last: '2026-12-31' });
});

test('a range joins two periods, either end open; one that ends before it starts names nothing', () => {
  assert.equal(parseDaySpan('2026-11..2026-12'), { first: '2026-11-01', last: '2026-12-31' });
  assert.equal(parseDaySpan('2026-11-15..'), { first: '2026-11-15' });
  assert.equal(parseDaySpan('..2026-W02'), { last: '2026-01-11' });
  assert.equal(parseDaySpan('2026-12..2026-W49'), { first: '2026-12-01', last: '2026-12-06' }, 'periods of two units');
  assert.equal(parseDaySpan('2026-12-06..2026-W49'), { first: '2026-12-06', last: '2026-12-06' });
  assert.equal(parseDaySpan('2026-12-07..2026-W49'), undefined);
  for (const bad of ['..', '2026-13', '2026-02-29', '2026-Q5', '26', '0999', '2026-12-05..2026-12-06..2026-12-07', '2026-1-5', ' 2026', 'x..2026', '2026..x', '10000'])
    assert.is(parseDaySpan(bad), undefined, bad);
  assert.equal(parseDaySpan('9999'), { first: '9999-01-01', last: '9999-12-31' });
  assert.is(dayAfter('9999-12-31'), undefined, 'past what a column holds');
  assert.is(dayAfter('2024-02-28'), '2024-02-29');
});

test('a zone’s day starts at its midnight, at the change where the clocks skip midnight, and at the later midnight where they repeat it', () => {
  const start = (zone: string, day: string) => new Date(localDayStart(zone, day)).toISOString();
  assert.is(start('UTC', '2026-12-05'), '2026-12-05T00:00:00.000Z');
  assert.is(start('Pacific/Kiritimati', '2026-03-11'), '2026-03-10T10:00:00.000Z', 'UTC+14');
  assert.is(start('Pacific/Pago_Pago', '2026-03-10'), '2026-03-10T11:00:00.000Z', 'UTC-11');
  assert.is(start('Asia/Kathmandu', '2026-01-01'), '2025-12-31T18:15:00.000Z', 'UTC+05:45');
  assert.is(start('Europe/Zurich', '2026-03-29'), '2026-03-28T23:00:00.000Z', 'the change is at 02:00, after midnight');
  assert.is(start('Europe/Zurich', '2026-03-30'), '2026-03-29T22:00:00.000Z');
  // Havana: 00:00 becomes 01:00 on 8 March; 01:00 becomes 00:00 on 1 November.
  assert.is(start('America/Havana', '2026-03-08'), '2026-03-08T05:00:00.000Z');
  assert.is(start('America/Havana', '2026-11-01'), '2026-11-01T04:00:00.000Z');
  // Santiago: 00:00 becomes 23:00 the day before on 5 April (5 April starts at the second midnight); 24:00 becomes 01:00 on 6 September.
  assert.is(start('America/Santiago', '2026-04-05'), '2026-04-05T04:00:00.000Z');
  assert.is(start('America/Santiago', '2026-09-06'), '2026-09-06T04:00:00.000Z');
});

test.run();
