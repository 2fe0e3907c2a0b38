// ISO 3166-1 countries and their first-level ISO 3166-2 subdivisions from the iso-3166 package;
// calling codes and currencies from countries-list.
import { countries as countryFacts } from 'countries-list';
import { iso31661, iso31662 } from 'iso-3166';
import type { Knex } from 'knex';
import { nowTimestamp } from '../../engine/index.ts';
import { insertMissing } from './insert-missing.ts';

export async function seedCountries(knex: Knex): Promise<{ countries: number; states: number }> {
  const now = nowTimestamp();
  const currencyIds = new Map<string, number>((await knex('currencies').select('id', 'name')).map((c) => [c.name, Number(c.id)]));
  const facts = countryFacts as Record<string, { phone: number[]; currency: string[] }>;

  const countryRows = [...iso31661]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((country) => {
      const fact = facts[country.alpha2];
      const currency = fact?.currency.find((code) => currencyIds.has(code));
      return {
        name: country.name,
        code: country.alpha2,
        phone_code: fact?.phone[0] !== undefined ? String(fact.phone[0]) : null,
        state_required: false,
        zip_required: false,
        currency_id: currency ? currencyIds.get(currency)! : null,
        created_at: now,
        updated_at: now,
      };
    });
  const countries = await insertMissing(knex, 'countries', 'code', countryRows);

  const countryIds = new Map<string, number>((await knex('countries').select('id', 'code')).map((c) => [c.code, Number(c.id)]));
  const stored = new Set((await knex('states').select('country_id', 'code')).map((s) => `${s.country_id}:${s.code}`));
  // First-level subdivisions only: their parent is the country itself, not another subdivision.
  const stateRows = iso31662
    .filter((state) => /^[A-Z]{2}$/.test(state.parent) && countryIds.has(state.parent))
    .map((state) => ({
      country_id: countryIds.get(state.parent)!,
      name: state.name,
      code: state.code.slice(state.code.indexOf('-') + 1),
      created_at: now,
      updated_at: now,
    }))
    .filter((row) => !stored.has(`${row.country_id}:${row.code}`));
  for (let i = 0; i < stateRows.length; i += 100) await knex('states').insert(stateRows.slice(i, i + 100));
  return { countries, states: stateRows.length };
}
