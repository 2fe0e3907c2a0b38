// CSV as RFC 4180 writes it: comma-separated, fields in double quotes when they hold a comma, a
// quote ("" inside) or a line break; lines end in CRLF, LF or a CR alone (old Mac files). The first
// line names the columns; a column whose name is empty is left out. A malformed file (an
// unterminated quote, a line with more or fewer cells than the header, text after a closing quote)
// is a MalformedFileError naming the line it starts on.
//
// One reader for a whole text (the import route: the body, bounded by IMPORT_MAX_BYTES) and for a
// file read chunk by chunk (`erp import`, src/cli/import-parts.ts): CsvReader takes the text as it
// comes and hands on the records it holds whole. A record is whole once its line end is read
// outside quotes, so a quoted cell may span any number of chunks, and a chunk that ends in a CR
// waits for the next to tell a CRLF from a CR alone. The lines are counted by one rule in both.
import { MalformedFileError, type ParsedRow } from './parsed-rows.ts';

/** A record being read longer than this is not read again with every chunk. */
const LONG_RECORD = 64 * 1024;

/** The records of a CSV text, each with the column names of its header, as strings. */
export function parseCsv(text: string): ParsedRow[] {
  return new CsvReader().end(text);
}

/**
 * A CSV read in chunks: push() each, then end(); each answers the rows whole so far. It holds the
 * record being read: at most `maxRecord` characters of it, else the file is malformed (a quote
 * never closed, or a record larger than anything it could be sent in).
 */
export class CsvReader {
  private pending = '';
  private line = 1;
  private names?: string[];
  private started = false;
  /** A long record being read is tried again once this much text is held (twice as much): read in linear time, not once per chunk. */
  private retryAt = 0;

  constructor(private readonly maxRecord = Number.POSITIVE_INFINITY) {}

  push(chunk: string): ParsedRow[] {
    this.pending += chunk;
    if (this.pending.length < this.retryAt) return [];
    return this.read(false);
  }

  end(chunk = ''): ParsedRow[] {
    this.pending += chunk;
    return this.read(true);
  }

  private read(final: boolean): ParsedRow[] {
    if (!this.started) {
      if (this.pending === '' && !final) return [];
      this.started = true;
      if (this.pending.charCodeAt(0) === 0xfeff) this.pending = this.pending.slice(1);
    }
    const { records, next, line } = csvRecords(this.pending, this.line, !final);
    this.pending = next === this.pending.length ? '' : this.pending.slice(next);
    this.line = line;
    if (this.pending.length > this.maxRecord) {
      throw new MalformedFileError(line, `starts a record longer than ${this.maxRecord.toLocaleString('en')} characters (a quoted cell that is never closed?)`);
    }
    this.retryAt = this.pending.length > LONG_RECORD ? 2 * this.pending.length : 0;
    return this.rows(records);
  }

  private rows(records: CsvRecord[]): ParsedRow[] {
    const rows: ParsedRow[] = [];
    for (const { cells, line } of records) {
      if (!this.names) {
        this.names = cells.map((name) => name.trim());
        continue;
      }
      const names = this.names;
      // A blank line (one empty cell) is no record: spreadsheets end files with one.
      if (cells.length === 1 && cells[0] === '' && names.length > 1) continue;
      if (cells.length !== names.length) throw new MalformedFileError(line, `has ${cells.length} cells where the header names ${names.length} columns`);
      const values: Record<string, unknown> = {};
      names.forEach((name, index) => {
        if (name !== '') values[name] = cells[index];
      });
      rows.push({ line, values, text: true });
    }
    return rows;
  }
}

interface CsvRecord {
  cells: string[];
  /** The line it starts on (1-based). */
  line: number;
}

/**
 * The records of the text as lists of cells, with the line each starts on, counting from `line`.
 * `partial`: the text may go on (a chunk of a file), so a record the text ends in before its line
 * end is left for later: `next` is where it starts, `line` its line.
 */
function csvRecords(text: string, line: number, partial: boolean): { records: CsvRecord[]; next: number; line: number } {
  const records: CsvRecord[] = [];
  let position = 0;
  const end = text.length;
  while (position < end) {
    const first = position;
    const start = line;
    const cells: string[] = [];
    for (;;) {
      let cell = '';
      if (text[position] === '"') {
        const opened = line;
        position++;
        for (;;) {
          const quote = text.indexOf('"', position);
          // A quote that ends the chunk may be the first of a doubled one.
          if (partial && (quote === -1 || quote === end - 1)) return { records, next: first, line: start };
          if (quote === -1) throw new MalformedFileError(opened, 'has a quoted cell that is never closed');
          cell += text.slice(position, quote);
          line += countLineBreaks(text, position, quote);
          if (text[quote + 1] === '"') {
            cell += '"';
            position = quote + 2;
            continue;
          }
          position = quote + 1;
          break;
        }
        const next = text[position];
        if (position < end && next !== ',' && next !== '\n' && next !== '\r') throw new MalformedFileError(line, 'has text after a closing quote');
      } else {
        let stop = position;
        while (stop < end && text[stop] !== ',' && text[stop] !== '\n' && text[stop] !== '\r') stop++;
        cell = text.slice(position, stop);
        if (cell.includes('"')) throw new MalformedFileError(line, 'has a quote inside a cell that does not start with one');
        position = stop;
      }
      cells.push(cell);
      if (text[position] === ',') {
        position++;
        continue;
      }
      break;
    }
    // The record is whole at its line end; a CR that ends the chunk may be a CRLF's first half.
    if (partial && (position === end || (text[position] === '\r' && position + 1 === end))) return { records, next: first, line: start };
    if (text[position] === '\r') position++;
    if (text[position] === '\n') position++;
    line++;
    records.push({ cells, line: start });
  }
  return { records, next: position, line };
}

/** The line breaks between `from` and `to` as the records count them: LF, CRLF or a CR alone. */
export function countLineBreaks(text: string, from = 0, to = text.length): number {
  let count = 0;
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    if (code === 10 || (code === 13 && text.charCodeAt(index + 1) !== 10)) count++;
  }
  return count;
}
