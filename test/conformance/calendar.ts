// The calendar as the definition-driven checks work it out, apart from the engine's: an instant's
// day in a zone (Intl), and a day's key by unit as the grouped totals and the date filters name
// periods.
import type { DateUnit } from '../../engine/aggregate/offer.ts';

/**
 * Zones with daylight-saving time, 12 to 13 hours ahead of UTC and 9 to 10 behind: an instant in
 * the afternoon (UTC) is the next day in the first, one in the morning the day before in the second.
 */
export const ZONES = ['Pacific/Auckland', 'America/Adak'];

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The day (`2026-12-05`) a UTC timestamp of the list is in a zone. */
export function dayIn(timestamp: string, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) dayFormats.set(timeZone, (format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  const parts = Object.fromEntries(format.formatToParts(Date.parse(`${timestamp.slice(0, 23)}Z`)).map((part) => [part.type, part.value]));
  return `${parts.year!.padStart(4, '0')}-${parts.month}-${parts.day}`;
}

/** `2026-12-05` by unit: `2026-12-05`, `2026-W49` (ISO week), `2026-12`, `2026-Q4`, `2026`. */
export function bucket(day: string, unit: DateUnit): string {
  const [year, month] = [day.slice(0, 4), Number(day.slice(5, 7))];
  switch (unit) {
    case 'day':
      return day;
    case 'month':
      return day.slice(0, 7);
    case 'quarter':
      return `${year}-Q${Math.ceil(month / 3)}`;
    case 'year':
      return year;
    case 'week': {
      // The ISO week is the week of its Thursday, and its year is that Thursday's.
      const date = Date.parse(`${day}T00:00:00Z`);
      const thursday = new Date(date + (3 - ((new Date(date).getUTCDay() + 6) % 7)) * 86_400_000);
      const isoYear = thursday.getUTCFullYear();
      const week = 1 + Math.floor((thursday.getTime() - Date.UTC(isoYear, 0, 1)) / (7 * 86_400_000));
      return `${String(isoYear).padStart(4, '0')}-W${String(week).padStart(2, '0')}`;
    }
  }
}
