// String formats the definitions may name, registered once with TypeBox.
import { FormatRegistry } from '@sinclair/typebox';

// The WHATWG (HTML form) e-mail rule: what users and browsers already agree is an address.
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(Z|([+-])(\d{2}):?(\d{2}))?)?$/;
/** The years both databases store in a DATE or DATETIME column (MySQL: 1000 to 9999). */
const FIRST_YEAR = 1000;
const LAST_YEAR = 9999;

/** A real calendar date within the years a database column stores: 2025-02-30 is refused. */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= FIRST_YEAR && year <= LAST_YEAR && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A date, optionally with a time and a UTC offset of at most ±14:00, that stays a storable date in UTC. */
export function isDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (!match || !isCalendarDate(`${match[1]}-${match[2]}-${match[3]}`)) return false;
  if (match[4] !== undefined && !(Number(match[4]) < 24 && Number(match[5]) < 60 && Number(match[6] ?? 0) < 60)) return false;
  if (match[8] !== undefined) {
    const minutes = Number(match[9]) * 60 + Number(match[10]);
    if (Number(match[10]) >= 60 || minutes > 14 * 60) return false;
  }
  const utcYear = new Date(
    `${match[1]}-${match[2]}-${match[3]}T${match[4] ?? '00'}:${match[5] ?? '00'}:00${match[8] ? `${match[8]}${match[9]}:${match[10]}` : 'Z'}`,
  ).getUTCFullYear();
  return utcYear >= FIRST_YEAR && utcYear <= LAST_YEAR;
}

function isUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** An IANA time zone the runtime knows (`Europe/Zurich`, `UTC`); `Mars/Base` is not one. */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

let registered = false;
export function registerFormats(): void {
  if (registered) return;
  registered = true;
  FormatRegistry.Set('email', (value) => EMAIL.test(value));
  FormatRegistry.Set('hex-color', (value) => HEX_COLOR.test(value));
  FormatRegistry.Set('date', isCalendarDate);
  FormatRegistry.Set('date-time', isDateTime);
  FormatRegistry.Set('url', isUrl);
  FormatRegistry.Set('time-zone', isTimeZone);
}
