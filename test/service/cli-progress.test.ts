// The command line's progress display (src/cli/progress.ts), shared by `erp export` and `erp
// import`: on a terminal, `\r` frames at most every 250 ms and a last frame with a line break; in a
// log (stderr not a terminal), no frames, a plain line at most every 10 s and one at the end.
// A fake stream and a fake clock.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { progress } from '../../src/cli/progress.ts';

function fake(isTTY: boolean) {
  const writes: string[] = [];
  let now = 1000;
  return {
    out: { isTTY, write: (text: string) => writes.push(text) },
    writes,
    clock: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

const test = suite('cli progress');

test('a terminal: the first state at once, then at most one frame per 250 ms however often the work reports', () => {
  const { out, writes, clock, advance } = fake(true);
  const shown = progress(out, { now: clock });
  shown.update({ done: 0, total: 10_000 });
  assert.equal(writes, [`\r[..............................]   0% 0/10,000 rows`]);
  for (let done = 1; done <= 100; done++) {
    advance(10); // 100 updates in one second
    shown.update({ done: done * 10, total: 10_000 });
  }
  assert.is(writes.length, 5, `four frames in that second, not a hundred: ${JSON.stringify(writes)}`);
  assert.ok(
    writes.every((frame) => frame.startsWith('\r') && !frame.includes('\n')),
    'redrawn in place',
  );
  assert.is(writes[1], `\r[#.............................]   2% 250/10,000 rows`);
  advance(10);
  shown.update({ done: 4200, total: 10_000 });
  assert.is(writes.length, 5, 'too soon after the last frame: kept, not drawn');
  shown.finish();
  assert.equal(writes.slice(5), [`\r[#############.................]  42% 4,200/10,000 rows`, '\n'], 'the last state always, then a line break');
  shown.update({ done: 5000, total: 10_000 });
  shown.finish();
  assert.is(writes.length, 7, 'nothing after the end');
});

test('a terminal: a shorter frame covers what a longer one left; no total: a count, or the share measured otherwise', () => {
  const { out, writes, clock, advance } = fake(true);
  const shown = progress(out, { now: clock });
  shown.update({ done: 1_234_567, share: 0.5 });
  assert.is(writes[0], '\r[###############...............]  50% 1,234,567 rows');
  advance(300);
  shown.update({ done: 12 });
  assert.is(writes[1], `\r${'12 rows'.padEnd(writes[0]!.length - 1)}`);
  shown.finish({ done: 20, total: 20 });
  assert.is(writes[2], '\r[##############################] 100% 20/20 rows');
});

test('not a terminal (a log, CI): no frames, a plain line at most every 10 s, and one at the end', () => {
  const { out, writes, clock, advance } = fake(false);
  const shown = progress(out, { now: clock });
  for (let second = 1; second <= 25; second++) {
    for (let tick = 0; tick < 10; tick++) {
      advance(100);
      shown.update({ done: second * 1000 + tick * 100, total: 30_000 });
    }
  }
  assert.equal(writes, ['10,900/30,000 rows (36%) after 10 s\n', '20,900/30,000 rows (69%) after 20 s\n']);
  advance(2000);
  shown.finish({ done: 30_000, total: 30_000 });
  assert.equal(writes.slice(2), ['30,000/30,000 rows (100%) in 27 s\n']);
  assert.not.ok(
    writes.some((line) => line.includes('\r')),
    'no carriage return in a log',
  );
});

test('not a terminal, a short run: only the line at the end', () => {
  const { out, writes, clock, advance } = fake(false);
  const shown = progress(out, { now: clock });
  shown.update({ done: 0, total: 25 });
  advance(400);
  shown.update({ done: 10, total: 25 });
  shown.finish({ done: 25, total: 25 });
  assert.equal(writes, ['25/25 rows (100%) in 0 s\n']);
});

test.run();
