// CSV as spreadsheets read it (RFC 4180): fields separated by commas, records ended by CRLF, a
// field quoted when it holds a comma, a quote, CR or LF, its quotes doubled. Values are written
// as the API writes them (dates, decimals); null is an empty field, a list or object its JSON.
//
// A text that a spreadsheet would run as a formula (it begins with =, +, -, @, a tab or a CR)
// is neutralised with a leading apostrophe: the cell shows the text instead of computing it
// (CSV injection, OWASP). A number written as text ("-5.00", a decimal) is left as it is.

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A text a spreadsheet would not evaluate: formula-looking text gets a leading `'`. */
export function neutralise(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** A value as the text of a cell: null empty, booleans true/false, lists and objects as JSON, text neutralised. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return neutralise(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return neutralise(JSON.stringify(value));
}

/** One field of a record, quoted when it must be. */
export function csvField(value: unknown): string {
  const text = cellText(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF included. */
export function csvLine(values: readonly unknown[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += (i === 0 ? '' : ',') + csvField(values[i]);
  return `${line}\r\n`;
}
