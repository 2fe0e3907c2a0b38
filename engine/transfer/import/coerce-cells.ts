// A CSV cell is text; the API takes typed values. Each cell is read by its field's type before
// validation, so that a row's errors read as a create's: "12" becomes 12, "true" true, an empty
// cell null, "[1,2]" a list. A cell that does not read as its type is passed on as it is, and the
// validator names it ("The factor field must be a number.").
import type { FieldDef, ResourceDef } from '../../definition/types.ts';

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const TRUE = new Set(['true', '1', 'yes']);
const FALSE = new Set(['false', '0', 'no']);

/** A row of text cells as a body: the resource's fields by their type, other columns as they are. */
export function coerceCells(def: ResourceDef, cells: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, cell] of Object.entries(cells)) {
    const field = def.fields.get(name);
    body[name] = typeof cell === 'string' ? (field ? coerceCell(field, cell) : cell === '' ? null : unneutralised(cell)) : cell;
  }
  return body;
}

/**
 * A JSON row's values (a JSON Lines record, a document's line) as a create takes them, read back
 * from how the API writes them (and so an export): a date (`2025-01-31T00:00:00.000000Z`) as the
 * day it names, a decimal's text (`"12.50"`) as its number. Other values are left to the validator.
 */
export function readValues(def: ResourceDef, values: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...values };
  for (const [name, value] of Object.entries(body)) {
    const type = def.fields.get(name)?.type;
    if (typeof value !== 'string') continue;
    if (type === 'date') body[name] = writtenDay(value);
    else if ((type === 'decimal' || type === 'number') && NUMBER.test(value.trim())) body[name] = Number(value);
  }
  return body;
}

/** `2025-01-31T00:00:00.000000Z` (a date as the API writes it) → `2025-01-31`; any other text as it is. */
function writtenDay(text: string): string {
  return /^\d{4}-\d{2}-\d{2}T00:00:00(\.0+)?Z$/.test(text) ? text.slice(0, 10) : text;
}

export function coerceCell(field: Pick<FieldDef, 'type'>, written: string): unknown {
  const cell = unneutralised(written);
  const text = cell.trim();
  if (text === '') return null;
  switch (field.type) {
    case 'integer':
    case 'number':
    case 'decimal':
      return NUMBER.test(text) ? Number(text) : cell;
    case 'boolean': {
      const lower = text.toLowerCase();
      return TRUE.has(lower) ? true : FALSE.has(lower) ? false : cell;
    }
    case 'date':
      return writtenDay(text) === text ? cell : writtenDay(text);
    case 'strings':
    case 'ids':
      return listCell(field.type, text) ?? cell;
    case 'records':
      return cell; // a document's lines: read by ./read-lines.ts
    default:
      return cell;
  }
}

/** A list cell: JSON (`[1,2]`, `["a"]`), or for ids a plain comma-separated list (`1,2`). */
function listCell(type: string, text: string): unknown {
  if (text.startsWith('[')) {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  }
  if (type === 'ids' && /^\d+(\s*,\s*\d+)*$/.test(text)) return text.split(',').map((id) => Number(id.trim()));
  return undefined;
}

/**
 * An export writes a text a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or CR
 * first) with a leading apostrophe (engine/transfer/csv-write.ts); the import takes it off.
 */
function unneutralised(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}
