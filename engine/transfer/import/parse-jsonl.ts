// JSON lines: one JSON object per line, as a create's body; blank lines are skipped. One reader
// for a whole text (the import route) and for a file read in chunks (`erp import`): a line is
// read once its LF is, or at the end.
import secureJson from 'secure-json-parse';
import { MalformedFileError, type ParsedRow } from './parsed-rows.ts';

export function parseJsonLines(text: string): ParsedRow[] {
  return new JsonLinesReader().end(text);
}

/** JSON lines read in chunks: push() each, then end(); each answers the rows whole so far. It holds at most `maxLine` characters of a line. */
export class JsonLinesReader {
  private pending = '';
  private line = 1;

  constructor(private readonly maxLine = Number.POSITIVE_INFINITY) {}

  push(chunk: string): ParsedRow[] {
    const rows: ParsedRow[] = [];
    let from = 0;
    for (let at = chunk.indexOf('\n'); at !== -1; at = chunk.indexOf('\n', from)) {
      const text = this.pending === '' ? chunk.slice(from, at) : this.pending + chunk.slice(from, at);
      this.pending = '';
      this.add(text, rows);
      from = at + 1;
    }
    this.pending += chunk.slice(from);
    if (this.pending.length > this.maxLine) throw new MalformedFileError(this.line, `is longer than ${this.maxLine.toLocaleString('en')} characters`);
    return rows;
  }

  end(chunk = ''): ParsedRow[] {
    const rows = this.push(chunk);
    if (this.pending !== '') this.add(this.pending, rows);
    this.pending = '';
    return rows;
  }

  private add(text: string, rows: ParsedRow[]): void {
    const number = this.line++;
    const line = text.trim();
    if (line === '') return;
    let value: unknown;
    try {
      // secure-json-parse, as for JSON bodies: no __proto__ or constructor pollution.
      value = secureJson.parse(line, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch {
      throw new MalformedFileError(number, 'is not valid JSON');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new MalformedFileError(number, 'is not a JSON object');
    rows.push({ line: number, values: value as Record<string, unknown> });
  }
}
