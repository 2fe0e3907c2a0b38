// The sales module's standard data: the public price list in the company's currency (no rules:
// products sell at their sales price), the "Sales" team, a few order tags, UTM mediums and
// sources, and one campaign, so that orders have something to point at from the first start.
//
// Each table is seeded only while it is empty: these are the users' data once installed, so a
// tag or medium renamed or deleted must not come back at the next start.
import type { Knex } from 'knex';
import { nowTimestamp } from '../../engine/index.ts';

export const PUBLIC_PRICE_LIST = 'Public Pricelist';
export const STANDARD_TEAM = 'Sales';
export const STANDARD_TAGS: Array<[name: string, color: string]> = [
  ['Product', '#1e90ff'],
  ['Services', '#2e8b57'],
  ['Consulting', '#ff8c00'],
];
export const STANDARD_UTM_MEDIUMS = ['Email', 'Website', 'Phone', 'Direct', 'Banner'];
export const STANDARD_UTM_SOURCES = ['Search engine', 'Newsletter', 'Website', 'Facebook', 'LinkedIn'];
export const STANDARD_UTM_CAMPAIGNS: Array<[name: string, title: string]> = [['sale', 'Sale']];

/** Seeds the sales module's standard data, each table only while it is empty; returns the rows added. */
export async function seedSales(knex: Knex, creatorId: number | null): Promise<number> {
  const company = await knex('companies').orderBy('id').first('id', 'currency_id');
  const usd = await knex('currencies').where('name', 'USD').first('id');
  const now = nowTimestamp();
  const stamp = { creator_id: creatorId, created_at: now, updated_at: now };
  let added = 0;

  await knex.transaction(async (trx) => {
    const fill = async (table: string, rows: Array<Record<string, unknown>>) => {
      if (rows.length === 0 || (await trx(table).first('id'))) return;
      for (const row of rows) await trx(table).insert({ ...row, ...stamp });
      added += rows.length;
    };
    const currencyId = usd?.id ?? company?.currency_id;
    await fill('sales_price_lists', currencyId ? [{ name: PUBLIC_PRICE_LIST, currency_id: currencyId, company_id: company?.id ?? null, active: true, sort: 1 }] : []);
    await fill('sales_teams', [{ name: STANDARD_TEAM, user_id: creatorId, company_id: company?.id ?? null, is_active: true, invoiced_target: 0, sort: 1 }]);
    await fill(
      'sales_tags',
      STANDARD_TAGS.map(([name, color]) => ({ name, color })),
    );
    await fill(
      'utm_mediums',
      STANDARD_UTM_MEDIUMS.map((name) => ({ name, is_active: true })),
    );
    await fill(
      'utm_sources',
      STANDARD_UTM_SOURCES.map((name) => ({ name })),
    );
    await fill(
      'utm_campaigns',
      STANDARD_UTM_CAMPAIGNS.map(([name, title]) => ({ name, title, is_active: true, user_id: creatorId, company_id: company?.id ?? null })),
    );
  });
  return added;
}
