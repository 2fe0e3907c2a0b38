// Periods of the calendar as a client names them: the keys the grouped totals give a date's
// buckets (`2026-12-05`, `2026-W49`, `2026-12`, `2026-Q4`, `2026`), and ranges of them
// (`2026-11..2026-12`, `2026-11-15..`, `..2026-W02`), so that a group's key taken as a date filter
// lists that group's records. Days are calendar days; which instants they hold is the zone's
// business (./zone-offsets.ts).

/** The days a period or a range of periods spans, inclusive; an open end has none. */
export interface DaySpan {
  first?: string;
  last?: string;
}

const PERIOD_TEXT = '[0-9]{4}(-[0-9]{2}(-[0-9]{2})?|-W[0-9]{2}|-Q[1-4])?';
/** A period, or a range of two with either end open: what the reference says a date filter takes. */
export const DAY_SPAN_PATTERN = `^(${PERIOD_TEXT}|${PERIOD_TEXT}\\.\\.(${PERIOD_TEXT})?|\\.\\.${PERIOD_TEXT})$`;
const PERIOD = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?|-W(\d{2})|-Q([1-4]))?$/;
/** The years a DATE column of both databases holds (MySQL: 1000 to 9999). */
const FIRST_YEAR = 1000;
const LAST_YEAR = 9999;

/** `raw` as the days it spans; undefined when it names no period (or ends before it starts). */
export function parseDaySpan(raw: string): DaySpan | undefined {
  const parts = raw.split('..');
  if (parts.length > 2) return undefined;
  if (parts.length === 1) return periodDays(raw);
  const [from, to] = parts.map((part) => part.trim());
  if (!from && !to) return undefined;
  const start: DaySpan | undefined = from ? periodDays(from) : {};
  const end: DaySpan | undefined = to ? periodDays(to) : {};
  if (!start || !end) return undefined;
  if (start.first && end.last && end.last < start.first) return undefined;
  return { ...(start.first && { first: start.first }), ...(end.last && { last: end.last }) };
}

/** One period's first and last day. */
function periodDays(text: string): Required<DaySpan> | undefined {
  const match = PERIOD.exec(text);
  if (!match) return undefined;
  const year = Number(match[1]);
  if (year < FIRST_YEAR || year > LAST_YEAR) return undefined;
  const [month, day, week, quarter] = [match[2], match[3], match[4], match[5]].map((part) => (part === undefined ? undefined : Number(part)));
  if (week !== undefined) {
    if (week < 1 || week > isoWeeksIn(year)) return undefined;
    const monday = addDays(isoWeekOneMonday(year), (week - 1) * 7);
    return { first: dayText(monday), last: dayText(addDays(monday, 6)) };
  }
  if (quarter !== undefined) return { first: dayText(utcDay(year, quarter * 3 - 3, 1)), last: dayText(utcDay(year, quarter * 3, 0)) };
  if (month === undefined) return { first: `${match[1]}-01-01`, last: `${match[1]}-12-31` };
  if (month < 1 || month > 12) return undefined;
  if (day === undefined) return { first: dayText(utcDay(year, month - 1, 1)), last: dayText(utcDay(year, month, 0)) };
  const date = utcDay(year, month - 1, day);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return { first: text, last: text };
}

/** The day after `day` (`YYYY-MM-DD`); undefined after the last day a column holds. */
export function dayAfter(day: string): string | undefined {
  const next = addDays(new Date(`${day}T00:00:00Z`), 1);
  return next.getUTCFullYear() > LAST_YEAR ? undefined : dayText(next);
}

/** The Monday of ISO week 1: the week that holds the year's first Thursday. */
function isoWeekOneMonday(year: number): Date {
  const fourth = utcDay(year, 0, 4);
  return addDays(fourth, -((fourth.getUTCDay() + 6) % 7));
}

/** 53 when the year starts on a Thursday, or is a leap year starting on a Wednesday; else 52. */
function isoWeeksIn(year: number): number {
  return isoWeekOneMonday(year + 1).getTime() - isoWeekOneMonday(year).getTime() === 53 * 7 * 86_400_000 ? 53 : 52;
}

/** A UTC midnight; `day` 0 is the last day of the month before (JavaScript's rule). */
function utcDay(year: number, month: number, day: number): Date {
  return new Date(Date.UTC(year, month, day));
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}

function dayText(date: Date): string {
  return date.toISOString().slice(0, 10);
}
