// "Today" as a record's company sees the calendar: the date a `defaultFrom: {now: true}` date, a
// `stampedBy` date, an action's `set: now` date and a sequence's `{year}` take. A company east of
// UTC is already in tomorrow while UTC is in today; a moment falls on the company's day too. Each
// unit of writing (engine/write/unit.ts) attaches the service's calendar to its transaction; a
// company's zone is read once per unit.
import type { Knex } from 'knex';
import { perTransaction } from '../behaviours/per-transaction.ts';
import { today } from '../serialize/value-formats.ts';

/** A company's time zone (an IANA name), read from the database; the acting user's default company when the record has none. */
export type CompanyTimeZone = (db: Knex | Knex.Transaction, companyId: number | null) => Promise<string>;

/** The company's day at a moment (now when none). */
type Calendar = (companyId: number | null, moment?: Date) => Promise<string>;

const calendars = perTransaction<Calendar>('This transaction is not a unit of writing of the engine: it has no calendar to date its records by.');

/** Attaches a unit's calendar: today in the zone of the record's company, else of the user's default company, else UTC. */
export function attachCalendar(trx: Knex.Transaction, zoneOf: CompanyTimeZone | undefined, userCompany: () => number | null): void {
  const zones = new Map<number | null, Promise<string>>();
  calendars.attach(trx, async (companyId, moment) => {
    const company = companyId ?? userCompany();
    if (!zoneOf) return today('UTC', moment);
    if (!zones.has(company)) zones.set(company, zoneOf(trx, company));
    return today(await zones.get(company)!, moment);
  });
}

/** Today (`YYYY-MM-DD`) for a record of this company (its `company_id`; none: the acting user's). */
export function todayFor(trx: Knex.Transaction, companyId: unknown): Promise<string> {
  return dayFor(trx, companyId, undefined);
}

/**
 * The day a moment falls on for this company (today when none): a purchase order's time is dated
 * by the company's calendar when its currency rate or its vendor prices are looked up.
 */
export function dayFor(trx: Knex.Transaction, companyId: unknown, moment: Date | undefined): Promise<string> {
  return calendars.of(trx)(companyId == null || companyId === '' ? null : Number(companyId), moment);
}
