// filter[f]=YYYY-MM-DD → that day, on a date column or a timestamp column.
import type { FilterKind } from './types.ts';
import { isCalendarDate } from '../../schema/formats.ts';

export const date: FilterKind<string> = {
  parse: (raw, filter) =>
    isCalendarDate(raw) ? { value: raw } : { error: `The filter[${filter.name}] value must be a date in the format YYYY-MM-DD.` },
  apply(query, value, filter, def) {
    const column = `${def.table}.${filter.fieldName}`;
    if (filter.field!.type === 'date') {
      query.where(column, value);
      return;
    }
    const next = new Date(`${value}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    query.where(column, '>=', `${value} 00:00:00`).where(column, '<', `${next.toISOString().slice(0, 10)} 00:00:00`);
  },
};
