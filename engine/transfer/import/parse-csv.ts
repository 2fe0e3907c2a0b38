// CSV as RFC 4180 writes it: comma-separated, fields in double quotes when they hold a comma, a
// quote ("" inside) or a line break; lines end in CRLF, LF or a CR alone (old Mac files). The first
// line names the columns; a column whose name is empty is left out. A malformed file (an
// unterminated quote, a line with more or fewer cells than the header, text after a closing quote)
// is a MalformedFileError naming the line it starts on.
import { MalformedFileError, type ParsedRow } from './parsed-rows.ts';

/** The records of a CSV text, each with the column names of its header, as strings. */
export function parseCsv(text: string): ParsedRow[] {
  const lines = csvRecords(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const header = lines.shift();
  if (!header) return [];
  const names = header.cells.map((name) => name.trim());
  const rows: ParsedRow[] = [];
  for (const { cells, line } of lines) {
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

/** The records of the text as lists of cells, with the line each starts on (1-based). */
function csvRecords(text: string): Array<{ cells: string[]; line: number }> {
  const records: Array<{ cells: string[]; line: number }> = [];
  let line = 1;
  let position = 0;
  const end = text.length;
  while (position < end) {
    const start = line;
    const cells: string[] = [];
    for (;;) {
      let cell = '';
      if (text[position] === '"') {
        const opened = line;
        position++;
        for (;;) {
          const quote = text.indexOf('"', position);
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
    if (text[position] === '\r') position++;
    if (text[position] === '\n') position++;
    line++;
    records.push({ cells, line: start });
  }
  return records;
}

/** The line breaks between `from` and `to` as the records count them: LF, CRLF or a CR alone. */
function countLineBreaks(text: string, from: number, to: number): number {
  let count = 0;
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    if (code === 10 || (code === 13 && text.charCodeAt(index + 1) !== 10)) count++;
  }
  return count;
}
