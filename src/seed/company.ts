import type { Knex } from 'knex';
import { nowTimestamp } from '../../engine/index.ts';

/** The installation's first company, "My Company", in US dollars, and its partner record. */
export async function seedCompany(knex: Knex, creatorId: number | null): Promise<number> {
  if (await knex('companies').first('id')) return 0;
  const company = { name: 'My Company', email: 'info@mycompany.local' };
  const usd = await knex('currencies').where('name', 'USD').first('id');
  const now = nowTimestamp();
  await knex('companies').insert({
    ...company,
    tax_id: 'MYC123456',
    company_registry: 'MYCREG001',
    currency_id: usd.id,
    is_active: true,
    creator_id: creatorId,
    created_at: now,
    updated_at: now,
  });
  if (!(await knex('partners_partners').where({ name: company.name, account_type: 'company' }).first('id'))) {
    await knex('partners_partners').insert({ ...company, account_type: 'company', sub_type: 'company', is_active: true, creator_id: creatorId, created_at: now, updated_at: now });
  }
  return 1;
}
