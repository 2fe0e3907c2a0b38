// Value formats of the contract: timestamps with microseconds and Z, decimals as fixed strings.

/** The two forms the engine stores (nowTimestamp), without and with microseconds. */
const STORED_SECONDS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const STORED_MICROSECONDS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/;
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?)?/;
// The last text formatted: a record's created_at and updated_at are often the same instant.
let lastStored = '';
let lastFormatted = '';

/** `2025-01-31 09:30:00.123` (as stored, UTC) or a Date → `2025-01-31T09:30:00.123000Z`. */
export function formatTimestamp(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return `${value.toISOString().slice(0, 23)}000Z`;
  const text = String(value);
  if (text === lastStored) return lastFormatted;
  let formatted: string;
  // Stored forms (every row, every response) skip the general parse and its intermediate strings.
  if (text.length === 26 && STORED_MICROSECONDS.test(text)) formatted = `${text.slice(0, 10)}T${text.slice(11)}Z`;
  else if (text.length === 19 && STORED_SECONDS.test(text)) formatted = `${text.slice(0, 10)}T${text.slice(11)}.000000Z`;
  else {
    const match = TIMESTAMP.exec(text);
    if (!match) return text;
    const fraction = (match[3] ?? '').padEnd(6, '0').slice(0, 6);
    formatted = `${match[1]}T${match[2] ?? '00:00:00'}.${fraction}Z`;
  }
  lastStored = text;
  lastFormatted = formatted;
  return formatted;
}

/** A date column is returned as midnight UTC of that day. */
export function formatDate(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return `${value.toISOString().slice(0, 10)}T00:00:00.000000Z`;
  return `${String(value).slice(0, 10)}T00:00:00.000000Z`;
}

const DECIMAL = /^(-?)(\d*)(?:\.(\d*))?$/;
const PLAIN_DECIMAL = /^-?\d+\.\d+$/;

/**
 * A decimal as a string with exactly `scale` places. MySQL returns DECIMAL as a string
 * ("0.0100"), SQLite as a number (0.01): both come out the same.
 */
export function formatDecimal(value: unknown, scale: number): string | null {
  if (value === null || value === undefined || value === '') return null;
  // toFixed already writes exactly `scale` places (what the general path below would rebuild).
  if (typeof value === 'number') return value.toFixed(scale);
  const text = String(value);
  // Stored with as many places as asked (MySQL's DECIMAL of that scale): as it is.
  if (scale > 0 && text.length - text.indexOf('.') - 1 === scale && PLAIN_DECIMAL.test(text)) return text;
  const match = DECIMAL.exec(text);
  if (!match) return Number(text).toFixed(scale);
  const fraction = match[3] ?? '';
  if (fraction.length > scale) return Number(text).toFixed(scale);
  return `${match[1]}${match[2] || '0'}${scale > 0 ? `.${fraction.padEnd(scale, '0')}` : ''}`;
}

/** Now, as the engine stores timestamps: UTC, microsecond precision, sortable as text. */
export function nowTimestamp(): string {
  return storedTimestamp(new Date());
}

/**
 * Today, as a business date (`YYYY-MM-DD`) in a time zone (an IANA name; default UTC): what a
 * document's date is when none is given. The one place it is worked out; the behaviours ask it in
 * their company's zone (engine/keys/company-today.ts), so that a payment made at 00:30
 * in Auckland is dated that day, not the day before.
 */
export function today(timeZone = 'UTC', now: Date = new Date()): string {
  if (timeZone === 'UTC') return storedTimestamp(now).slice(0, 10);
  const parts = Object.fromEntries(
    dayFormat(timeZone)
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** One formatter per zone (building one costs far more than using it). */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
function dayFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone);
  if (!format) dayFormats.set(timeZone, (format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hourCycle: 'h23' })));
  return format;
}

/** A date and time as sent (`2026-12-05T10:30:00+01:00`, `2026-12-05`: midnight UTC) as the engine stores it. */
export function storedTimestampOf(value: string): string {
  const zone = /(Z|[+-]\d{2}:?\d{2})$/.exec(value)?.[1];
  const local = zone ? value.slice(0, -zone.length) : value;
  const offset = !zone || zone === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  return storedTimestamp(new Date(`${local.replace(' ', 'T')}${local.length === 10 ? 'T00:00:00' : ''}${offset}`));
}

/** A moment as the engine stores timestamps. */
export function storedTimestamp(moment: Date): string {
  return `${moment.toISOString().slice(0, 23).replace('T', ' ')}000`;
}
