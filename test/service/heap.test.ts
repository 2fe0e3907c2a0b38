// The heap limits of src/heap.ts, in a process of their own (V8's flags are per process): the
// young generation keeps its size while the server starts, then grows under load as V8 decides,
// to 8 MB a semi-space (or another cap, not only a power of two); a growth factor or a cap given
// to node wins.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { growthFactorUnder, MAX_SEMI_SPACE_MB } from '../../src/heap.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MB = 1024 * 1024;
const test = suite('heap limits');

// Allocates like a busy server: a few megabytes per turn of the event loop, mostly garbage, a
// share kept for a while (what makes V8 grow the young generation), and reports the young
// generation's size at each step.
const PROBE = `
import { letYoungGenerationGrow, limitHeapGrowth, semiSpaceMegabytes, youngGenerationBytes } from './src/heap.ts';
const churn = async () => {
  const kept = [];
  for (let round = 0; round < 400; round++) {
    for (let i = 0; i < 20000; i++) {
      const value = { id: i, name: 'record ' + i, lines: [i, i + 1] };
      if (i % 8 === 0) kept.push(value);
    }
    if (kept.length > 300000) kept.length = 0;
    await new Promise((resolve) => setImmediate(resolve)); // the event loop turns, as between requests
  }
};
const sizes = { start: youngGenerationBytes() };
limitHeapGrowth();
await churn();
sizes.starting = youngGenerationBytes();
letYoungGenerationGrow(process.env.PROBE_CAP_MB ? Number(process.env.PROBE_CAP_MB) : undefined);
await churn();
sizes.serving = youngGenerationBytes();
sizes.servingSemiSpaceMb = semiSpaceMegabytes();
console.log(JSON.stringify(sizes));
`;

function probe(nodeFlags: string[], capMb?: number): Promise<{ start: number; starting: number; serving: number; servingSemiSpaceMb: number }> {
  const env = { ...process.env, PROBE_CAP_MB: capMb === undefined ? '' : String(capMb) };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...nodeFlags, '--import', 'tsx', '--input-type=module', '-e', PROBE], { cwd: ROOT, env }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    );
  });
}

test('the young generation keeps its size while the server starts, then grows under load to its cap', async () => {
  const sizes = await probe([]);
  // At most its second semi-space committed: V8 may have committed only one when the probe began.
  assert.ok(sizes.starting <= 2 * sizes.start, `starting: ${sizes.starting / MB} MB from ${sizes.start / MB} MB`);
  assert.ok(sizes.serving >= 4 * sizes.starting, `serving: ${sizes.serving / MB} MB after ${sizes.starting / MB} MB`);
  assert.is(sizes.servingSemiSpaceMb, MAX_SEMI_SPACE_MB);
  assert.ok(sizes.serving <= 2 * MAX_SEMI_SPACE_MB * MB, `serving: ${sizes.serving / MB} MB`);
});

test('a cap that is not a power of two is reached, not stopped short of', async () => {
  // Doubling from 1 MB gives 2, 4, 8: a 6 MB cap used to leave the young generation at 4 MB.
  const sizes = await probe([], 6);
  assert.is(sizes.servingSemiSpaceMb, 6);
  assert.ok(sizes.serving <= 2 * 6 * MB, `serving: ${sizes.serving / MB} MB`);
});

test("the growth factor: V8's doubling while it stays under the cap, then the step that lands on it", () => {
  assert.equal(
    [1, 2, 4, 8].map((current) => growthFactorUnder(8, current)),
    [2, 2, 2, 1],
  );
  assert.equal(
    [1, 2, 6].map((current) => growthFactorUnder(6, current)),
    [2, 3, 1],
  );
  assert.is(growthFactorUnder(7, 2), 3); // 6 MB: the largest multiple under the cap
});

test("a cap given to node is V8's own: the young generation grows past the service's", async () => {
  const sizes = await probe(['--max-semi-space-size=16']);
  assert.is(sizes.servingSemiSpaceMb, 16);
});

test('a growth factor given to node wins', async () => {
  const sizes = await probe(['--semi-space-growth-factor=4']);
  assert.ok(sizes.starting > 2 * sizes.start, `starting: ${sizes.starting / MB} MB from ${sizes.start / MB} MB`);
});

test.run();
