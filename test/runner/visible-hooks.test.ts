// uvu counts a suite whose `before` hook throws as failed without saying why; the files of this
// suite get uvu through test/runner/visible-hooks.ts, which prints the error with the suite's name.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const test = suite('visible before hooks');

test('a before hook that throws is printed with its suite, and its tests count as failed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'erp-hooks-'));
  try {
    const file = join(dir, 'fixture.test.mts'); // .mts: a module wherever it lies
    writeFileSync(
      file,
      `import { suite } from 'uvu';
const fixture = suite('a fixture');
fixture.before(() => {
  throw new Error('the fixture could not start');
});
fixture('never runs', () => {});
fixture.run();
`,
    );
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, ['--import', 'tsx', '--import', './test/runner/register.ts', file], { cwd: ROOT }, (error, stdout, stderr) =>
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr }),
      ),
    );
    assert.match(run.stderr, /a fixture: its before hook failed, so none of its tests ran/);
    assert.match(run.stderr, /the fixture could not start/);
    assert.match(run.stdout, /\(0 \/ 1\)/);
    assert.is(run.code, 1, 'the run fails');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
