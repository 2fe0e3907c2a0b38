// filter[f]=<period> or <period>..<period>: the records whose date falls in those days. A period
// is a day (2026-12-05), an ISO week (2026-W49), a month (2026-12), a quarter (2026-Q4) or a year
// (2026): the keys a grouped total gives, so that a group's key lists its records. Either end of a
// range may be left open (2026-11-15.., ..2026-11). On a datetime the days are those of the
// list's zone (`tz`, else the company's), as the grouped totals bucket it.
import { dayAfter, parseDaySpan, type DaySpan } from '../../calendar/periods.ts';
import { localDayStart } from '../../calendar/zone-offsets.ts';
import { compared, inRange, isNotNull, within } from '../../sql/conditions.ts';
import type { FilterKind } from './types.ts';

export const date: FilterKind<DaySpan> = {
  parse(raw, filter) {
    const span = parseDaySpan(raw);
    if (span) return { value: span };
    return {
      error: `The filter[${filter.name}] value must be a day (YYYY-MM-DD), a week (YYYY-Www), a month (YYYY-MM), a quarter (YYYY-Qn) or a year (YYYY), or a range of them (from..to) that does not end before it starts.`,
    };
  },
  condition({ first, last }, column, filter, { timeZone }) {
    if (filter.field!.type === 'date') return within(column, first, last);
    // A day starts on a whole second (zone offsets are whole seconds): written without a fraction,
    // the bound sorts before the same second with one, as SQLite compares the text of a datetime.
    const instant = (day: string) => new Date(localDayStart(timeZone, day)).toISOString().slice(0, 19).replace('T', ' ');
    const end = last === undefined ? undefined : dayAfter(last);
    if (first !== undefined && end !== undefined) return inRange(column, instant(first), instant(end));
    if (first !== undefined) return compared(column, '>=', instant(first));
    // Up to the last day a column holds: any date at all.
    return end !== undefined ? compared(column, '<', instant(end)) : isNotNull(column);
  },
};
