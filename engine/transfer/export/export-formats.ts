// The files an export writes, as byte streams made from the batches of rows: CSV (RFC 4180,
// UTF-8 with a byte order mark, so that spreadsheets read it as UTF-8), JSON Lines (one record
// per line, values as the API writes them), and XLSX (./xlsx-write.ts: rows are deflated into
// the zip as they come, never held as a workbook). Numbers and booleans are typed cells in a
// workbook; other values are text (dates and decimals as the API writes them, formula-looking
// text neutralised as in CSV).
import { Readable } from 'node:stream';
import { cellText, csvLine } from '../csv-write.ts';
import { xlsxChunks } from './xlsx-write.ts';

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
  const chunks = format === 'xlsx' ? xlsxChunks(names, batches, xlsxValue) : format === 'csv' ? csvChunks(names, batches) : jsonlChunks(names, batches);
  return Readable.from(chunks, { objectMode: false });
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

/** A cell of the workbook: numbers and booleans as such, null empty, anything else as a CSV cell's text. */
function xlsxValue(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  return value === null || value === undefined ? null : cellText(value);
}
