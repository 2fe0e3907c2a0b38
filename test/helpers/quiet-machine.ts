// The timed files promise their measurements the machine to themselves. After the workers, the
// databases may still be busy for a while (MariaDB purging the dropped test databases, the
// cluster's nodes settling), which a browser or a latency measurement would count as the
// product's time. This waits, a minute at most, until the processors are mostly idle.
import { cpus } from 'node:os';

/** Share of processor time spent idle over `ms`, across all processors. */
export async function idleShare(ms = 1000): Promise<number> {
  const sample = () =>
    cpus().reduce((sum, cpu) => ({ idle: sum.idle + cpu.times.idle, total: sum.total + Object.values(cpu.times).reduce((a, b) => a + b, 0) }), { idle: 0, total: 0 });
  const before = sample();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = sample();
  return (after.idle - before.idle) / Math.max(1, after.total - before.total);
}

/** Waits until a second passes with at least `share` of processor time idle, or `limitMs`; says what it found. */
export async function waitForQuietMachine(share = 0.8, limitMs = 60_000): Promise<string> {
  const started = Date.now();
  let idle = await idleShare();
  while (idle < share && Date.now() - started < limitMs) idle = await idleShare();
  const waited = ((Date.now() - started) / 1000).toFixed(0);
  return idle >= share
    ? `machine quiet after ${waited} s (${Math.round(idle * 100)} % idle)`
    : `machine still busy after ${waited} s (${Math.round(idle * 100)} % idle): timings may suffer`;
}
