// The partners module's standard data: forms of address (titles) and industries. Partner tags
// are left to the users (none seeded, as in the original).
//
// Each table is seeded only while it is empty (trashed rows count): these are the users' data
// once installed, so a title renamed or deleted must not come back at the next start.
import type { Knex } from 'knex';
import { nowTimestamp } from '../../engine/index.ts';

export const STANDARD_TITLES: Array<[name: string, shortName: string]> = [
  ['Doctor', 'Dr.'],
  ['Madam', 'Mrs'],
  ['Miss', 'Miss'],
  ['Mister', 'Mr.'],
  ['Professor', 'Prof.'],
];

export const STANDARD_INDUSTRIES: Array<[name: string, description: string]> = [
  ['Administrative/Utilities', 'Administrative and Support Service Activities'],
  ['Agriculture', 'Agriculture, Forestry, and Fishing'],
  ['Construction', 'Construction'],
  ['Education', 'Education'],
  ['Energy Supply', 'Electricity, Gas, Steam, and Air Conditioning Supply'],
  ['Entertainment', 'Arts, Entertainment, and Recreation'],
  ['Extraterritorial', 'Activities of Extraterritorial Organisations and Bodies'],
  ['Finance/Insurance', 'Financial and Insurance Activities'],
  ['Food/Hospitality', 'Accommodation and Food Service Activities'],
  ['Health/Social', 'Human Health and Social Work Activities'],
  ['Households', 'Activities of Households as Employers'],
  ['IT/Communication', 'Information and Communication'],
  ['Manufacturing', 'Manufacturing'],
  ['Mining', 'Mining and Quarrying'],
  ['Other Services', 'Other Service Activities'],
  ['Public Administration', 'Public Administration and Defence; Compulsory Social Security'],
  ['Real Estate', 'Real Estate Activities'],
  ['Scientific', 'Professional, Scientific, and Technical Activities'],
  ['Transportation/Logistics', 'Transportation and Storage'],
  ['Water Supply', 'Water Supply; Sewerage, Waste Management, and Remediation Activities'],
  ['Wholesale/Retail', 'Wholesale and Retail Trade; Repair of Motor Vehicles and Motorcycles'],
];

/** Seeds the titles and the industries, each table only while it is empty; returns the rows added. */
export async function seedPartners(knex: Knex, creatorId: number | null): Promise<number> {
  const now = nowTimestamp();
  const stamp = { creator_id: creatorId, created_at: now, updated_at: now };
  const titles = await seedEmptyTable(
    knex,
    'partners_titles',
    STANDARD_TITLES.map(([name, short_name]) => ({ name, short_name, ...stamp })),
  );
  const industries = await seedEmptyTable(
    knex,
    'partners_industries',
    STANDARD_INDUSTRIES.map(([name, description]) => ({ name, description, is_active: true, ...stamp })),
  );
  return titles + industries;
}

/** Inserts the rows, in order, when the table has none (trashed ones included); returns how many. */
export async function seedEmptyTable(knex: Knex, table: string, rows: Array<Record<string, unknown>>): Promise<number> {
  if (await knex(table).first('id')) return 0;
  await knex.transaction(async (trx) => {
    for (const row of rows) await trx(table).insert(row);
  });
  return rows.length;
}
