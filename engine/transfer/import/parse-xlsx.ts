// A spreadsheet (.xlsx): the first worksheet, its first row naming the columns. Every cell is
// read as text (a date as YYYY-MM-DD, or ISO 8601 with a time), then by its field's type as a
// CSV cell is, so that a code typed as a number stays a code.
import type ExcelJS from 'exceljs';
import { BadRequestError } from '../../errors/http-errors.ts';
import { loadExcel } from '../load-excel.ts';
import type { ParsedRow } from './parsed-rows.ts';

export async function parseXlsx(buffer: Buffer): Promise<ParsedRow[]> {
  const workbook = new (await loadExcel()).Workbook();
  try {
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch {
    throw new BadRequestError('The file is malformed: it is not a readable .xlsx workbook.');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const names: string[] = [];
  const rows: ParsedRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      cells[column - 1] = cellText(cell.value);
    });
    if (names.length === 0) {
      names.push(...Array.from(cells, (name) => (name ?? '').trim()));
      return;
    }
    const values: Record<string, unknown> = {};
    names.forEach((name, index) => {
      if (name !== '') values[name] = cells[index] ?? '';
    });
    rows.push({ line: number, values, text: true });
  });
  return rows;
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (typeof value !== 'object') return String(value);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('formula' in value || 'sharedFormula' in value) return cellText((value as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue);
  if ('text' in value) return String(value.text);
  if ('error' in value) return String(value.error);
  return '';
}
