// A company's time zone (support/companies `timezone`, an IANA name): the service's calendar
// (engine/keys/company-today.ts), by which the dates that default to today are the company's
// local date, and the zone grouped totals bucket datetimes in. A company east of UTC is already
// in tomorrow while UTC is in today: its documents are dated as its people see the calendar.
import type { Knex } from 'knex';
import { dayFor } from '../../../engine/index.ts';

/** The company's time zone; UTC without a company. */
export async function companyTimeZone(db: Knex | Knex.Transaction, companyId: number | null | undefined): Promise<string> {
  if (companyId == null) return 'UTC';
  const company = await db('companies').where('id', companyId).first('timezone');
  return company?.timezone || 'UTC';
}

/**
 * The company's day of a date or moment: a date (`2025-03-14`, a Date) as it is; a stored UTC
 * timestamp (`2025-03-14 23:30:00`, ISO) the day it is in the company's time zone then; none, today
 * there (a sales order at 23:30 UTC in Auckland is already of the next day: it takes that day's
 * currency rate and the vendor prices that hold that day). The unit's calendar reads the zone once.
 */
export async function companyDayOf(trx: Knex.Transaction, companyId: number, date: unknown): Promise<string> {
  if (date instanceof Date) return date.toISOString().slice(0, 10);
  const text = date === null || date === undefined ? '' : String(date).trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
  const moment = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/.test(text) ? new Date(/[zZ]|[+-]\d{2}:?\d{2}$/.test(text) ? text : `${text.replace(' ', 'T')}Z`) : undefined;
  if (moment && Number.isNaN(moment.getTime())) return text.slice(0, 10);
  return dayFor(trx, companyId, moment);
}
