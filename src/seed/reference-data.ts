// Currencies, countries and their states, from npm packages (currencies.ts, countries.ts). They are
// read while one of their tables is still empty, in one transaction, so that a start which finds
// all three filled never loads the packages: ~2.5 MB of heap that every process would otherwise
// keep for its whole life. Rows an administrator removes later are not brought back.
import type { Knex } from 'knex';

const TABLES = ['currencies', 'countries', 'states'] as const;

export interface ReferenceDataAdded {
  currencies: number;
  countries: number;
  states: number;
}

export async function seedReferenceData(knex: Knex): Promise<ReferenceDataAdded> {
  if (await allFilled(knex)) return { currencies: 0, countries: 0, states: 0 };
  const [{ seedCurrencies }, { seedCountries }] = await Promise.all([import('./currencies.ts'), import('./countries.ts')]);
  // One transaction: a start interrupted half-way leaves the tables as they were, not partly filled.
  return knex.transaction(async (trx) => {
    const currencies = await seedCurrencies(trx);
    const { countries, states } = await seedCountries(trx);
    return { currencies, countries, states };
  });
}

async function allFilled(knex: Knex): Promise<boolean> {
  for (const table of TABLES) if (!(await knex(table).first('id'))) return false;
  return true;
}
