// A time zone's offsets from UTC over a span of time, worked out with Intl (the zone data Node
// ships), so that the database can bucket a UTC datetime by the zone's calendar without its own
// zone tables (MySQL's are rarely loaded, on a Galera node least of all; SQLite has none): the
// statement shifts each value by the offset of the range it falls in, exact on both sides of a
// daylight-saving change.

/** From `from` (ms since the epoch, inclusive; the first range has none) the zone is `offset` seconds ahead of UTC. */
export interface OffsetRange {
  from?: number;
  offset: number;
}

const DAY = 86_400_000;
const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** Seconds the zone's clocks are ahead of UTC at `instant` (negative west of Greenwich). */
export function zoneOffset(timeZone: string, instant: number): number {
  let format = offsetFormats.get(timeZone);
  if (!format) offsetFormats.set(timeZone, (format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })));
  const name = format.formatToParts(instant).find((part) => part.type === 'timeZoneName')!.value;
  const match = /^GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(name);
  if (!match || match[1] === undefined) return 0;
  const seconds = Number(match[2]) * 3600 + Number(match[3]) * 60 + Number(match[4] ?? 0);
  return match[1] === '-' ? -seconds : seconds;
}

/**
 * The zone's offsets between two instants: one range when it does not change (UTC, most of the
 * world), else a range from each change on. The zone is sampled daily (no zone changes twice in a
 * day) and each change found to the second; a span of ten years is some 3,700 samples.
 */
export function offsetRanges(timeZone: string, from: number, to: number): OffsetRange[] {
  // Whole seconds, so that the search below halves whole seconds.
  const start = Math.floor(from / 1000) * 1000;
  const end = Math.ceil(to / 1000) * 1000;
  const ranges: OffsetRange[] = [{ offset: zoneOffset(timeZone, start) }];
  let before = start;
  for (let at = start + DAY; ; at += DAY) {
    const sample = Math.min(at, end);
    const offset = zoneOffset(timeZone, sample);
    if (offset !== ranges.at(-1)!.offset) ranges.push({ from: changeBetween(timeZone, before, sample), offset });
    if (sample >= end) return ranges;
    before = sample;
  }
}

/** The first second after `before` at which the offset differs from the one at `before` (it does by `after`). */
function changeBetween(timeZone: string, before: number, after: number): number {
  const offset = zoneOffset(timeZone, before);
  let low = before;
  let high = after;
  while (high - low > 1000) {
    const middle = low + Math.floor((high - low) / 2000) * 1000;
    if (zoneOffset(timeZone, middle) === offset) low = middle;
    else high = middle;
  }
  return high;
}

// Each zone's ranges per UTC year, worked out once: a table's dates span a few years, asked again and again.
const yearRanges = new Map<string, OffsetRange[]>();
const MAX_CACHED_YEARS = 5_000;

/**
 * The years whose changes are worked out exactly. A value before takes the first year's first
 * offset, one after the last year's last: a date in year 9999 (which the API stores) must not make
 * a request work out 8,000 years of changes, nor a statement compare with 16,000 of them.
 */
export const EXACT_YEARS = { from: 1900, to: 2200 } as const;

/** offsetRanges() from whole years (those of EXACT_YEARS at most), each worked out once per zone. */
export function offsetRangesByYear(timeZone: string, from: number, to: number): OffsetRange[] {
  const ranges: OffsetRange[] = [];
  const first = Math.min(Math.max(new Date(from).getUTCFullYear(), EXACT_YEARS.from), EXACT_YEARS.to);
  const last = Math.max(Math.min(new Date(to).getUTCFullYear(), EXACT_YEARS.to), first);
  for (let year = first; year <= last; year++) {
    const key = `${timeZone}|${year}`;
    let ofYear = yearRanges.get(key);
    if (!ofYear) {
      if (yearRanges.size >= MAX_CACHED_YEARS) yearRanges.clear();
      yearRanges.set(key, (ofYear = offsetRanges(timeZone, Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1))));
    }
    for (const range of ofYear) {
      // A year begins with the offset the last one ended with: only a change starts a range.
      if (ranges.length > 0 && range.offset === ranges.at(-1)!.offset) continue;
      ranges.push(ranges.length === 0 ? { offset: range.offset } : { from: range.from ?? Date.UTC(year, 0, 1), offset: range.offset });
    }
  }
  return ranges;
}

/**
 * The first instant (ms) of a local day (`YYYY-MM-DD`) in the zone: the first at which the
 * zone's date is that day or later, as the grouped totals bucket an instant (its own offset
 * added). Where the clocks skip midnight (a change at 00:00), the day starts at the change;
 * where they go back over it, at the later midnight.
 */
export function localDayStart(timeZone: string, day: string): number {
  const midnight = Date.parse(`${day}T00:00:00Z`);
  // Offsets lie within ±14 hours: every candidate start is midnight less one of those around it.
  const offsets = new Set([zoneOffset(timeZone, midnight - 15 * 3_600_000), zoneOffset(timeZone, midnight), zoneOffset(timeZone, midnight + 15 * 3_600_000)]);
  const starts = [...offsets].map((offset) => midnight - offset * 1000).filter((start) => start + zoneOffset(timeZone, start) * 1000 >= midnight);
  return starts.length > 0 ? Math.min(...starts) : midnight - zoneOffset(timeZone, midnight) * 1000;
}
