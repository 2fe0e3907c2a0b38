// filter[f]=YYYY-MM-DD → that day, on a date column or a timestamp column.
import { equals, inRange } from '../../sql/conditions.ts';
import type { FilterKind } from './types.ts';
import { isCalendarDate } from '../../schema/string-formats.ts';

export const date: FilterKind<string> = {
  parse: (raw, filter) => (isCalendarDate(raw) ? { value: raw } : { error: `The filter[${filter.name}] value must be a date in the format YYYY-MM-DD.` }),
  condition(value, column, filter) {
    if (filter.field!.type === 'date') return equals(column, value);
    const next = new Date(`${value}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    return inRange(column, `${value} 00:00:00`, `${next.toISOString().slice(0, 10)} 00:00:00`);
  },
};
