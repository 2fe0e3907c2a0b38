// An .xlsx export of 1,000,000 rows in bounded memory (engine/transfer/export/xlsx-write.ts):
// the rows are deflated into the file as they come, so the process grows by what a batch and the
// compressor hold, not by the file (exceljs' streaming writer grew by some 320 MB here, 512 MB
// behind the HTTP route). The file must still be a workbook: exceljs reads every row back, by its
// streaming reader (its whole-workbook reader would hold a million rows as objects).
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { setImmediate } from 'node:timers/promises';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { exportStream } from '../../../engine/transfer/export/export-formats.ts';
import { loadExcel } from '../../../engine/transfer/load-excel.ts';

const ROWS = 1_000_000;
const BATCH = 1000;
const NAMES = ['id', 'name', 'type', 'factor', 'rounding', 'category_id', 'active', 'created_at'];

/** The rows a UOM export reads, batch by batch, as the database would hand them. */
async function* batches() {
  for (let start = 0; start < ROWS; start += BATCH) {
    yield Array.from({ length: BATCH }, (_, j) => [
      start + j + 1,
      `unit ${start + j} <&>`,
      'bigger',
      '1.000000',
      '0.010000',
      7,
      (start + j) % 2 === 0,
      '2025-01-31T09:30:00.000000Z',
    ]);
    await setImmediate();
  }
}

const test = suite('xlsx export in bounded memory');
const dir = mkdtempSync(join(tmpdir(), 'erp-xlsx-'));
const file = join(dir, 'uoms.xlsx');
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('1,000,000 rows: resident memory grows by a bounded amount, and exceljs reads every row back', async () => {
  // The streaming path only: exceljs is loaded for the reading, after the measure.
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  try {
    await pipeline(exportStream('xlsx', NAMES, batches()), createWriteStream(file));
  } finally {
    clearInterval(sampler);
  }
  const grownMB = (peak - before) / 2 ** 20;
  assert.ok(grownMB < 120, `resident memory grew by ${grownMB.toFixed(0)} MB`);

  const reader = new (await loadExcel()).stream.xlsx.WorkbookReader(file, { sharedStrings: 'ignore', styles: 'ignore', hyperlinks: 'ignore', worksheets: 'emit' });
  let rows = 0;
  for await (const sheet of reader) {
    for await (const row of sheet as AsyncIterable<{ number: number; values: unknown[] }>) {
      rows++;
      if (row.number === 1) assert.equal(row.values.slice(1), NAMES);
      if (row.number === 2) assert.equal(row.values.slice(1), [1, 'unit 0 <&>', 'bigger', '1.000000', '0.010000', 7, true, '2025-01-31T09:30:00.000000Z']);
      if (row.number === ROWS + 1) assert.is(row.values[1], ROWS);
    }
  }
  assert.is(rows, ROWS + 1, 'the header and every row');
});

test.run();
