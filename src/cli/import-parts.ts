// What `erp import` sends (./import-file.ts): a file's rows read as a stream, in bounded memory,
// and cut into parts of at most `maxRows` rows and `maxBytes` bytes, each a request body of its
// own that maps its rows back to the file's lines.
//
// CSV and JSON lines are read chunk by chunk by the import's own parsers (CsvReader,
// JsonLinesReader: a quoted cell may span chunks, lines are counted as the import route counts
// them), and rows are taken only as fast as the parts are sent: memory holds a chunk, the record
// being read and one part, whatever the file's size. A .xlsx workbook is a zip whose sheet is read
// whole (exceljs): it is loaded in memory, then cut the same way.
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { countLineBreaks, CsvReader } from '../../engine/transfer/import/parse-csv.ts';
import { JsonLinesReader } from '../../engine/transfer/import/parse-jsonl.ts';
import { parseXlsx } from '../../engine/transfer/import/parse-xlsx.ts';
import type { ParsedRow } from '../../engine/transfer/import/parsed-rows.ts';

export type FileKind = 'csv' | 'jsonl' | 'xlsx';

/** The file's kind by its extension: .jsonl and .ndjson, .xlsx, anything else CSV. */
export function fileKind(file: string): FileKind {
  const extension = /\.[^./\\]*$/.exec(file)?.[0].toLowerCase();
  return extension === '.xlsx' ? 'xlsx' : extension === '.jsonl' || extension === '.ndjson' ? 'jsonl' : 'csv';
}

export interface FileRows {
  /** The rows in batches, read as they are asked for. */
  batches: AsyncIterable<ParsedRow[]>;
  /** How much of the file is read so far, 0 to 1. */
  read(): number;
  /** How many rows there are, when known before they are sent (a workbook's). */
  total?: number;
}

/**
 * The rows of a file. `maxRecord`: the most characters one record may hold (a part must hold it);
 * a longer one, as a quote never closed, is the file's error at its line.
 */
export async function fileRows(file: string, kind: FileKind, maxRecord: number): Promise<FileRows> {
  if (kind === 'xlsx') {
    const rows = await parseXlsx(await readFile(file));
    return {
      batches: (async function* () {
        yield rows;
      })(),
      read: () => 1,
      total: rows.length,
    };
  }
  const { size } = await stat(file);
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 64 * 1024 });
  const reader = kind === 'jsonl' ? new JsonLinesReader(maxRecord) : new CsvReader(maxRecord);
  async function* batches(): AsyncGenerator<ParsedRow[]> {
    try {
      for await (const chunk of stream) {
        const rows = reader.push(chunk as string);
        if (rows.length > 0) yield rows;
      }
      const rows = reader.end();
      if (rows.length > 0) yield rows;
    } finally {
      stream.destroy();
    }
  }
  return { batches: batches(), read: () => (size === 0 ? 1 : Math.min(1, stream.bytesRead / size)) };
}

export interface Part {
  /** The request's body: valid until the next part is asked for (one buffer is written again for each part). */
  body: Buffer;
  contentType: string;
  /** The rows it holds: how many, and the file's lines of the first and the last. */
  rows: number;
  first: number;
  last: number;
  /** The line of the part an import report names (its `row`) → the file's line. */
  lines: Map<number, number>;
}

export interface PartBounds {
  maxRows: number;
  maxBytes: number;
}

/** A row that no part can hold: larger alone than a request may be. */
export class RowTooLargeError extends Error {}

/**
 * The rows cut into parts: CSV for a CSV or a workbook (the header's columns, repeated at the top
 * of each part), JSON lines as they are. A part is handed on when the next row would take it over
 * a bound. Each row is written into the part's buffer as it comes and dropped: what stays in memory
 * is that buffer (at most `maxBytes`), not the part's rows.
 */
export async function* importParts(batches: AsyncIterable<ParsedRow[]>, asCsv: boolean, bounds: PartBounds): AsyncGenerator<Part> {
  const part = new PartWriter(bounds.maxBytes, asCsv ? 'text/csv' : 'application/x-ndjson');
  let columns: string[] | undefined;
  let header: string | undefined;
  for await (const rows of batches) {
    for (const row of rows) {
      if (asCsv && !columns) {
        // A CSV's or a workbook's rows all have the header's columns.
        columns = Object.keys(row.values);
        header = columns.map(csvCell).join(',');
      }
      const record = columns ? columns.map((column) => csvCell(row.values[column])).join(',') : JSON.stringify(row.values);
      const bytes = Buffer.byteLength(record) + 1;
      if (part.rows > 0 && (part.rows >= bounds.maxRows || part.length + bytes > bounds.maxBytes)) {
        yield part.done();
        part.clear();
      }
      if (part.rows === 0 && part.length === 0 && header !== undefined) part.header(header);
      if (part.length + bytes > bounds.maxBytes) {
        throw new RowTooLargeError(
          `Line ${row.line} holds a record of ${bytes.toLocaleString('en')} bytes, more than one import request takes with the header (${bounds.maxBytes.toLocaleString('en')} bytes: --bytes, IMPORT_MAX_BYTES).`,
        );
      }
      part.add(row, record, bytes);
    }
  }
  if (part.rows > 0) yield part.done();
}

/** One part's body, written record by record into a buffer kept from part to part. */
class PartWriter {
  private buffer = Buffer.allocUnsafe(0);
  length = 0;
  rows = 0;
  private first = 0;
  private last = 0;
  private lines = new Map<number, number>();
  /** The part's line the next record starts on, as the import counts them. */
  private line = 1;

  constructor(
    private readonly maxBytes: number,
    private readonly contentType: string,
  ) {}

  header(text: string): void {
    this.write(text, Buffer.byteLength(text) + 1);
    // The import counts lines as the CSV parser does: a quoted line break is a line too.
    this.line = countLineBreaks(text) + 2;
  }

  add(row: ParsedRow, record: string, bytes: number): void {
    if (this.rows === 0) this.first = row.line;
    this.last = row.line;
    this.write(record, bytes);
    this.lines.set(this.line, row.line);
    this.line += this.contentType === 'text/csv' ? countLineBreaks(record) + 1 : 1;
    this.rows++;
  }

  done(): Part {
    return { body: this.buffer.subarray(0, this.length), contentType: this.contentType, rows: this.rows, first: this.first, last: this.last, lines: this.lines };
  }

  clear(): void {
    this.length = 0;
    this.rows = 0;
    this.lines = new Map();
    this.line = 1;
  }

  /** The text and a line feed (`bytes` in all). */
  private write(text: string, bytes: number): void {
    if (this.length + bytes > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.length + bytes, Math.min(this.maxBytes, Math.max(2 * this.buffer.length, 64 * 1024))));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.buffer.write(text, this.length, 'utf8');
    this.buffer[this.length + bytes - 1] = 0x0a;
    this.length += bytes;
  }
}

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
