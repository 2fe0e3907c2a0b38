// A company's time zone (support/companies `timezone`, an IANA name): the service's calendar
// (engine/keys/company-today.ts), by which the dates that default to today are the company's
// local date, and the zone grouped totals bucket datetimes in. A company east of UTC is already
// in tomorrow while UTC is in today: its documents are dated as its people see the calendar.
import type { Knex } from 'knex';

/** The company's time zone; UTC without a company. */
export async function companyTimeZone(db: Knex | Knex.Transaction, companyId: number | null | undefined): Promise<string> {
  if (companyId == null) return 'UTC';
  const company = await db('companies').where('id', companyId).first('timezone');
  return company?.timezone || 'UTC';
}
