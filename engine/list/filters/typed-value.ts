// Reads one filter value as the type of the field it filters.
import type { FilterDef } from '../../definition/types.ts';
import { isCalendarDate } from '../../schema/string-formats.ts';

export function parseTypedValue(raw: string, filter: FilterDef): { value: string | number | boolean } | { error: string } {
  const field = filter.field!;
  switch (field.type) {
    case 'integer':
      return /^-?[0-9]{1,15}$/.test(raw) ? { value: Number(raw) } : { error: `The filter[${filter.name}] value must be an integer (at most 15 digits).` };
    case 'number':
    case 'decimal':
      return raw !== '' && Number.isFinite(Number(raw)) ? { value: Number(raw) } : { error: `The filter[${filter.name}] value must be a number.` };
    case 'boolean':
      return parseBoolean(raw, filter);
    case 'date':
      return isCalendarDate(raw) ? { value: raw } : { error: `The filter[${filter.name}] value must be a date in the format YYYY-MM-DD.` };
    default:
      return { value: raw };
  }
}

export function parseBoolean(raw: string, filter: FilterDef): { value: boolean } | { error: string } {
  const value = raw.toLowerCase();
  if (value === 'true' || value === '1') return { value: true };
  if (value === 'false' || value === '0') return { value: false };
  return { error: `The filter[${filter.name}] value must be true, false, 1 or 0.` };
}
