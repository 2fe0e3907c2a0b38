import type { Knex } from 'knex';
import { nowTimestamp } from '../../engine/index.ts';

/** The installation's first company, "My Company", in US dollars. */
export async function seedCompany(knex: Knex, creatorId: number | null): Promise<number> {
  if (await knex('companies').first('id')) return 0;
  const usd = await knex('currencies').where('name', 'USD').first('id');
  const now = nowTimestamp();
  await knex('companies').insert({
    name: 'My Company',
    email: 'info@mycompany.local',
    tax_id: 'MYC123456',
    company_registry: 'MYCREG001',
    currency_id: usd.id,
    is_active: true,
    creator_id: creatorId,
    created_at: now,
    updated_at: now,
  });
  return 1;
}
