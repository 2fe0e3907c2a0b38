// `npm run erp -- import <resource> <file>` (src/cli/import-file.ts): a file larger than one request
// takes, sent in parts to a running service, with a progress bar on stderr and one report whose
// rows are numbered as in the file.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, startApp, type TestApp } from '../helpers/app.ts';
import { databaseTargets } from '../helpers/targets.ts';

function erp(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], { env: { ...process.env, ...env }, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
    });
  });
}

for (const target of databaseTargets()) {
  const test = suite(`erp import [${target.name}]`);
  let app: TestApp;
  let folder: string;

  test.before(async () => {
    // Parts of at most 10 rows: the command must split the file.
    app = await startApp(target, { minimalSeed: true, env: { IMPORT_MAX_ROWS: '10' } });
    folder = mkdtempSync(join(tmpdir(), 'erp-import-'));
  });
  test.after(async () => {
    await app.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('a 25-row CSV in parts of 10: every valid row created, the bad one reported by its line, a progress bar', async () => {
    const token = await app.login();
    const category = (await app.client.post(`${API}/support/uom-categories`, { token, body: { name: `CLI ${target.name}` } })).body.data.id;
    const lines = Array.from({ length: 25 }, (_, i) => (i === 16 ? `smaller,bad,lots,0.01` : `smaller,"unit, ${i}",${i + 1},0.01`));
    const file = join(folder, 'uoms.csv');
    writeFileSync(file, `type,name,factor,rounding\n${lines.join('\n')}\n`);
    const run = await erp(['import', 'support/uoms', file, '--parent', String(category), '--rows', '10', '--skip'], { ERP_URL: app.client.baseUrl, ERP_TOKEN: token });
    assert.is(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.is(report.rows, 25);
    assert.is(report.created, 24);
    assert.equal(report.rejected, [{ row: 18, errors: { factor: ['The factor field must be a number.'] } }]);
    assert.match(run.stderr, /25\/25 rows/);
    const stored = await app.knex('unit_of_measures').where('category_id', category).count({ n: '*' }).first();
    assert.is(Number(stored!.n), 24);

    const again = await erp(['import', 'support/uoms', file, '--parent', String(category), '--rows', '10', '--dry-run'], { ERP_URL: app.client.baseUrl, ERP_TOKEN: token });
    assert.is(again.code, 0, again.stderr);
    assert.is(JSON.parse(again.stdout).dry_run, true);
    assert.is(Number((await app.knex('unit_of_measures').where('category_id', category).count({ n: '*' }).first())!.n), 24, 'a dry run writes nothing');
  });

  test('no token, an unknown resource: exit 1 saying why', async () => {
    const file = join(folder, 'empty.csv');
    writeFileSync(file, 'name\n');
    const unknown = await erp(['import', 'support/nothing', file], { ERP_TOKEN: 'x' });
    assert.is(unknown.code, 1);
    assert.match(unknown.stderr, /No resource named support\/nothing/);
    const untokened = await erp(['import', 'support/banks', file], { ERP_TOKEN: '' });
    assert.is(untokened.code, 1);
    assert.match(untokened.stderr, /A token is needed/);
  });

  test.run();
}
