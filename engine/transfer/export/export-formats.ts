// The files an export writes, as byte streams made from the batches of rows: CSV (RFC 4180,
// UTF-8 with a byte order mark, so that spreadsheets read it as UTF-8), JSON Lines (one record
// per line, values as the API writes them), and XLSX (exceljs' streaming writer: rows are
// written to the zip as they come, never held as a workbook).
import { PassThrough, Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import { cellText, csvLine } from '../csv-write.ts';
import { loadExcel } from '../load-excel.ts';

export const EXPORT_FORMATS = ['csv', 'jsonl', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

type Batches = AsyncIterable<unknown[][]>;

/** The file of these rows under a header of `names`, as a stream that reads a batch when asked for more. */
export function exportStream(format: ExportFormat, names: readonly string[], batches: Batches): Readable {
  if (format === 'xlsx') return xlsxStream(names, batches);
  return Readable.from(format === 'csv' ? csvChunks(names, batches) : jsonlChunks(names, batches), { objectMode: false });
}

async function* csvChunks(names: readonly string[], batches: Batches): AsyncGenerator<Buffer> {
  yield Buffer.from(`\uFEFF${csvLine(names)}`);
  for await (const rows of batches) {
    let chunk = '';
    for (const row of rows) chunk += csvLine(row);
    yield Buffer.from(chunk);
  }
}

async function* jsonlChunks(names: readonly string[], batches: Batches): AsyncGenerator<Buffer> {
  for await (const rows of batches) {
    let chunk = '';
    for (const row of rows) {
      const record: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) record[names[i]!] = row[i] ?? null;
      chunk += `${JSON.stringify(record)}\n`;
    }
    yield Buffer.from(chunk);
  }
}

/**
 * A workbook of one sheet: numbers and booleans as such, other values as text (dates and decimals
 * as the API writes them, formula-looking text neutralised as in CSV). The writer's output goes
 * through a PassThrough whose back-pressure the reading of the next batch awaits.
 */
function xlsxStream(names: readonly string[], batches: Batches): Readable {
  const output = new PassThrough();
  // The zip is compressed off the main thread: a pause lets it catch up, and a full output waits for the reader.
  const drained = async () => {
    await setImmediate();
    if (output.writableNeedDrain) await new Promise<void>((resolve) => output.once('drain', resolve));
  };
  (async () => {
    const workbook = new (await loadExcel()).stream.xlsx.WorkbookWriter({ stream: output, useSharedStrings: false, useStyles: false });
    const sheet = workbook.addWorksheet('export');
    sheet.addRow([...names]).commit();
    for await (const rows of batches) {
      for (const row of rows) sheet.addRow(row.map(xlsxValue)).commit();
      await drained();
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error) => output.destroy(error));
  return output;
}

function xlsxValue(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  return value === null || value === undefined ? null : cellText(value);
}
