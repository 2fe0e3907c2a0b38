// `npm run erp -- import <resource> <file>` (src/cli/import-file.ts): a file larger than one request
// takes, read as a stream and sent in parts to a running service, with a progress display on stderr
// and one report whose rows are numbered as in the file; its memory does not grow with the file.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCsv } from '../../engine/transfer/import/parse-csv.ts';
import { parseJsonLines } from '../../engine/transfer/import/parse-jsonl.ts';
import type { ParsedRow } from '../../engine/transfer/import/parsed-rows.ts';
import { fileRows, importParts, RowTooLargeError, type Part } from '../../src/cli/import-parts.ts';
import { API, startApp, type TestApp } from '../helpers/app.ts';
import { databaseTargets, inThisRun } from '../helpers/targets.ts';
import { builtEntry } from '../helpers/built.ts';

async function erp(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const entry = await builtEntry('src/cli/index.ts');
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [entry, ...args], { env: { ...process.env, ...env }, timeout: 120_000 }, (error, stdout, stderr) => {
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

  test('a CR-only file, quoted line breaks of every kind: the rejected row named by its line in the file', async () => {
    const token = await app.login();
    const category = (await app.client.post(`${API}/support/uom-categories`, { token, body: { name: `CLI CR ${target.name}` } })).body.data.id;
    // Each record spans three lines (a quoted LF, CRLF or lone CR, then two), records end in a CR.
    const breaks = ['\n', '\r\n', '\r'];
    const lines = Array.from({ length: 14 }, (_, i) => `smaller,"cr ${i}${breaks[i % 3]}line${breaks[(i + 1) % 3]}end",${i === 11 ? 'bad' : i + 1},0.01`);
    const file = join(folder, 'cr.csv');
    writeFileSync(file, `type,name,factor,rounding\r${lines.join('\r')}\r`);
    const run = await erp(['import', 'support/uoms', file, '--parent', String(category), '--rows', '4', '--skip'], { ERP_URL: app.client.baseUrl, ERP_TOKEN: token });
    assert.is(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.is(report.created, 13);
    assert.equal(report.rejected, [{ row: 2 + 11 * 3, errors: { factor: ['The factor field must be a number.'] } }]);
    const names = await app.knex('unit_of_measures').where('category_id', category).orderBy('id').pluck('name');
    assert.is(names[1], 'cr 1\r\nline\rend', 'the line breaks kept as written');
  });

  test('a malformed line past the first parts: the parts before it are written, the line named, exit 1', async () => {
    const token = await app.login();
    const category = (await app.client.post(`${API}/support/uom-categories`, { token, body: { name: `CLI malformed ${target.name}` } })).body.data.id;
    const lines = Array.from({ length: 30 }, (_, i) => (i === 24 ? `smaller,"never closed,1,0.01` : `smaller,unit ${i},${i + 1},0.01`));
    const file = join(folder, 'malformed.csv');
    writeFileSync(file, `type,name,factor,rounding\n${lines.join('\n')}\n`);
    const run = await erp(['import', 'support/uoms', file, '--parent', String(category), '--rows', '10'], { ERP_URL: app.client.baseUrl, ERP_TOKEN: token });
    assert.is(run.code, 1);
    assert.match(run.stderr, `${file}: The file is malformed: line 26 has a quoted cell that is never closed. The 20 rows before it were sent: 20 created, 0 updated.`);
    assert.is(Number((await app.knex('unit_of_measures').where('category_id', category).count({ n: '*' }).first())!.n), 20);
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

// ---------------------------------------------------------------------------------------------

const parts = suite('erp import parts');

async function collect(rows: ParsedRow[], asCsv: boolean, maxRows: number, maxBytes: number): Promise<Part[]> {
  const found: Part[] = [];
  // A part's body is a view on a buffer written again for the next part: copied here.
  for await (const part of importParts([rows] as unknown as AsyncIterable<ParsedRow[]>, asCsv, { maxRows, maxBytes })) found.push({ ...part, body: Buffer.from(part.body) });
  return found;
}

parts('CSV: parts of at most N rows and B bytes, the header at the top of each, every row back at its line in the file', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'erp-parts-'));
  try {
    const breaks = ['\n', '\r\n', '\r'];
    const records = Array.from({ length: 40 }, (_, i) => `${i},"cell ${i}${breaks[i % 3]}with ""quotes"", a comma${breaks[(i + 2) % 3]}${'x'.repeat(i * 10)}"`);
    const text = `\uFEFFid,note\r${records.join(breaks[1]!)}\r\n`;
    const file = join(folder, 'mixed.csv');
    writeFileSync(file, text);
    const source = await fileRows(file, 'csv', 1000);
    const whole = parseCsv(text);
    for (const [maxRows, maxBytes] of [
      [7, 10_000],
      [1000, 600],
    ] as const) {
      const cut = await collect(whole, true, maxRows, maxBytes);
      assert.ok(cut.length > 2, `cut into parts (${maxRows} rows, ${maxBytes} bytes)`);
      const back: ParsedRow[] = [];
      for (const part of cut) {
        assert.ok(part.rows <= maxRows && part.body.length <= maxBytes, `${part.rows} rows, ${part.body.length} bytes`);
        assert.ok(part.body.toString().startsWith('id,note\n'), 'the header repeated');
        const parsed = parseCsv(part.body.toString());
        assert.is(parsed.length, part.rows);
        assert.is(part.first, parsed[0] && part.lines.get(parsed[0].line));
        for (const row of parsed) back.push({ ...row, line: part.lines.get(row.line)! });
      }
      assert.equal(back, whole, 'the same rows at the same lines of the file');
    }
    const streamed: ParsedRow[] = [];
    for await (const batch of source.batches) streamed.push(...batch);
    assert.equal(streamed, whole, 'the file read as a stream reads as the whole text');
    assert.is(source.read(), 1);
    try {
      await collect(whole, true, 10, 300);
      assert.unreachable('a row larger than a part');
    } catch (error) {
      assert.instance(error, RowTooLargeError);
      const first = whole.find((row) => Buffer.byteLength(`id,note\n${row.values.id},"${String(row.values.note).replace(/"/g, '""')}"\n`) > 300)!;
      assert.match((error as Error).message, new RegExp(`^Line ${first.line} holds a record of \\d+ bytes, more than one import request takes with the header \\(300 bytes`));
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

parts('JSON lines: parts as JSON lines, each line back at its line in the file (blank lines counted)', async () => {
  const text = Array.from({ length: 23 }, (_, i) => (i % 5 === 4 ? '' : JSON.stringify({ id: i, note: `line ${i}\n"quoted"` }))).join('\n');
  const whole = parseJsonLines(text);
  const back: ParsedRow[] = [];
  for (const part of await collect(whole, false, 4, 100_000)) {
    assert.ok(part.rows <= 4);
    for (const row of parseJsonLines(part.body.toString())) back.push({ ...row, line: part.lines.get(row.line)! });
  }
  assert.equal(back, whole);
});

// The same in both halves of a run on both databases (test/run.ts): run in the SQLite one only.
if (inThisRun('sqlite')) parts.run();

// ---------------------------------------------------------------------------------------------

/** The command with its peak resident memory: /usr/bin/time -v's, else the child's VmHWM polled from /proc. */
async function measured(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string; peakMB: number }> {
  const time = existsSync('/usr/bin/time');
  const node = [process.execPath, await builtEntry('src/cli/index.ts'), ...args];
  const child = spawn(time ? '/usr/bin/time' : node[0]!, time ? ['-v', ...node] : node.slice(1), { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let peakKB = 0;
  const poll = time
    ? undefined
    : setInterval(() => {
        try {
          peakKB = Math.max(peakKB, Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0));
        } catch {
          // gone
        }
      }, 20);
  const [code] = (await once(child, 'exit')) as [number];
  clearInterval(poll);
  if (time) peakKB = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? 0);
  assert.ok(peakKB > 0, `a peak measured:\n${stderr}`);
  return { code, stdout, stderr, peakMB: peakKB / 1024 };
}

/**
 * A CSV of UOMs of about `megabytes`, written as a stream: each record some 16 KB, most of it a
 * column the import ignores (`padding`: what it costs is the reading, the parts and the requests),
 * with a lone CR inside its quotes so that every record spans two lines and quoted cells and line
 * breaks straddle the reads' chunks; records end in CRLF. Every 2,500th row has a bad factor.
 */
async function bigCsv(file: string, megabytes: number): Promise<{ rows: number; bad: number[] }> {
  const out = createWriteStream(file);
  out.write('type,name,factor,rounding,padding\r\n');
  const padding = 'p'.repeat(16 * 1024);
  const bad: number[] = [];
  let rows = 0;
  let bytes = 0;
  while (bytes < megabytes * 1024 * 1024) {
    const wrong = rows % 2500 === 1234;
    if (wrong) bad.push(2 + 2 * rows);
    const record = `smaller,"big ${rows}, streamed",${wrong ? 'bad' : (rows % 97) + 1},0.01,"${padding}\r${rows}"\r\n`;
    rows++;
    bytes += record.length;
    if (!out.write(record)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return { rows, bad };
}

const MB = 100;
/** Peak memory may differ run to run by some 20 MB (when the collector runs); reading the file whole would add its size. */
const MARGIN_MB = 50;
const CEILING_MB = 300;

for (const target of databaseTargets().filter((candidate) => candidate.name === 'sqlite')) {
  const memory = suite(`erp import in bounded memory [${target.name}]`);
  let app: TestApp;
  let folder: string;

  memory.before(async () => {
    // The service's own bounds (IMPORT_MAX_ROWS 5,000, IMPORT_MAX_BYTES 10 MiB), the command's defaults.
    app = await startApp(target, { minimalSeed: true });
    folder = mkdtempSync(join(tmpdir(), 'erp-import-memory-'));
  });
  memory.after(async () => {
    await app.close();
    rmSync(folder, { recursive: true, force: true });
  });

  // The file is read as a stream, so the command's memory does not grow with the file: a 100 MB
  // and a 200 MB file peak within MARGIN_MB of each other (a file read whole would add 100 MB, its
  // rows more), both under CEILING_MB. A 1 GB file would prove the same in a minute more.
  memory(`${MB} MB and ${2 * MB} MB CSV files: every row imported, rejected rows at their lines, the same peak memory, under ${CEILING_MB} MB`, async () => {
    const token = await app.login();
    const category = (await app.client.post(`${API}/support/uom-categories`, { token, body: { name: 'Streamed import' } })).body.data.id;
    const peaks: number[] = [];
    const seconds: number[] = [];
    let created = 0;
    for (const size of [MB, 2 * MB]) {
      const file = join(folder, `uoms-${size}.csv`);
      const { rows, bad } = await bigCsv(file, size);
      const started = performance.now();
      const run = await measured(['import', 'support/uoms', file, '--parent', String(category), '--skip'], { ERP_URL: app.client.baseUrl, ERP_TOKEN: token });
      rmSync(file);
      assert.is(run.code, 0, run.stderr);
      const report = JSON.parse(run.stdout);
      assert.is(report.rows, rows);
      assert.is(report.created, rows - bad.length, `${size} MB: every valid row created`);
      assert.equal(
        report.rejected.map((entry: { row: number }) => entry.row),
        bad,
        'the rejected rows at their lines in the file',
      );
      assert.match(run.stderr, `${rows.toLocaleString('en')}/${rows.toLocaleString('en')} rows (100%) in`);
      assert.not.match(run.stderr, '\r', 'no frames when stderr is not a terminal');
      created += report.created;
      peaks.push(run.peakMB);
      seconds.push((performance.now() - started) / 1000);
    }
    const stored = await app.knex('unit_of_measures').where('category_id', category).count({ n: '*' }).first();
    assert.is(Number(stored!.n), created);
    const [small, large] = peaks as [number, number];
    assert.ok(large < CEILING_MB && small < CEILING_MB, `peak memory ${small.toFixed(0)} MB and ${large.toFixed(0)} MB, under ${CEILING_MB} MB`);
    assert.ok(Math.abs(large - small) < MARGIN_MB, `peak memory ${small.toFixed(0)} MB for ${MB} MB, ${large.toFixed(0)} MB for ${2 * MB} MB: within ${MARGIN_MB} MB`);
    console.log(
      `\n    erp import: peak memory ${small.toFixed(0)} MB for a ${MB} MB CSV (${seconds[0]!.toFixed(1)} s), ${large.toFixed(0)} MB for ${2 * MB} MB (${seconds[1]!.toFixed(1)} s)`,
    );
  });

  memory.run();
}
