// Today in a company's time zone (support/companies `timezone`): the date a payment, an invoice
// made from an order or a reversal takes when none is sent. A company east of UTC is already in
// tomorrow while UTC is in today: its documents are dated as its people see the calendar.
import type { Knex } from 'knex';
import { today } from '../../../engine/index.ts';

/** The company's time zone (an IANA name); UTC without a company. */
export async function companyTimeZone(trx: Knex | Knex.Transaction, companyId: number | null | undefined): Promise<string> {
  if (companyId == null) return 'UTC';
  const company = await trx('companies').where('id', companyId).first('timezone');
  return company?.timezone || 'UTC';
}

export async function companyToday(trx: Knex | Knex.Transaction, companyId: number | null | undefined): Promise<string> {
  return today(await companyTimeZone(trx, companyId));
}
