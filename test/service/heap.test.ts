// The heap limits of src/heap.ts, in a process of their own (V8's flags are per process): the
// young generation does not grow while the server starts, then grows to SEMI_SPACE_MB per
// semi-space under load and stops there, whatever node was started with, unless node was given
// its own --max-semi-space-size.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SEMI_SPACE_MB } from '../../src/heap.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MB = 1024 * 1024;
const test = suite('heap limits');

// Allocates like a busy server: a few megabytes per turn of the event loop, mostly garbage, a
// share kept for a while (what makes V8 grow the young generation), and reports the young
// generation's size at each step.
const PROBE = `
import { letYoungGenerationGrowToCap, limitHeapGrowth, youngGenerationBytes } from './src/heap.ts';
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
if (process.argv.includes('--limits')) limitHeapGrowth();
await churn();
sizes.starting = youngGenerationBytes();
if (process.argv.includes('--limits')) letYoungGenerationGrowToCap();
await churn();
sizes.serving = youngGenerationBytes();
console.log(JSON.stringify(sizes));
`;

function probe(nodeFlags: string[], args: string[]): Promise<{ start: number; starting: number; serving: number }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...nodeFlags, '--import', 'tsx', '--input-type=module', '-e', PROBE, '--', ...args], { cwd: ROOT }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    );
  });
}

test('without limits V8 grows the young generation past the cap (what the limits are for)', async () => {
  const sizes = await probe([], []);
  assert.ok(sizes.serving > 2 * SEMI_SPACE_MB * MB, `young generation ${sizes.serving / MB} MB`);
});

test('with the limits it keeps its size while starting, then stops at the cap', async () => {
  const sizes = await probe([], ['--limits']);
  // At most its second semi-space committed: V8 may have committed only one when the probe began.
  assert.ok(sizes.starting <= 2 * sizes.start, `starting: ${sizes.starting / MB} MB from ${sizes.start / MB} MB`);
  assert.is(sizes.serving, 2 * SEMI_SPACE_MB * MB, `serving: ${sizes.serving / MB} MB`);
});

test('a --max-semi-space-size given to node wins', async () => {
  const sizes = await probe(['--max-semi-space-size=16'], ['--limits']);
  assert.ok(sizes.serving > 2 * SEMI_SPACE_MB * MB, `young generation ${sizes.serving / MB} MB`);
});

test.run();
