// First-start reference data. Idempotent: each step adds only what is missing, so running it on
// every start (or twice) adds nothing the second time. Currencies, countries and states are read
// from their packages only while their tables are empty (reference-data.ts).
import type { Knex } from 'knex';
import { fillMissingWords, type Registry } from '../../engine/index.ts';
import { syncPermissions } from '../access/permissions.ts';
import type { Config } from '../app/config.ts';
import { loadResources } from '../app/build-app.ts';
import { seedAccounts } from './accounts.ts';
import { seedCompany } from './company.ts';
import { seedInventories } from './inventories.ts';
import { seedPartners } from './partners.ts';
import { seedProducts } from './products.ts';
import { seedProjects } from './projects.ts';
import { seedReferenceData } from './reference-data.ts';
import { seedSales } from './sales.ts';
import { seedUnitsOfMeasure } from './units-of-measure.ts';
import { assignDefaultCompany, seedAdmin, type CreatedUser } from './users.ts';

export interface SeedResult {
  added: Record<string, number>;
  admin?: CreatedUser;
}

export async function seed(knex: Knex, config: Pick<Config, 'adminEmail' | 'adminName' | 'adminPassword'>, registry: Registry = loadResources()): Promise<SeedResult> {
  // Every start: the permissions of the registry exist, and the Admin role holds them all.
  const permissions = await syncPermissions(knex, registry);
  const admin = await seedAdmin(knex, { email: config.adminEmail, name: config.adminName, password: config.adminPassword });
  const adminId = admin?.id ?? (await knex('users').orderBy('id').first('id'))?.id ?? null;
  const { currencies, countries, states } = await seedReferenceData(knex);
  const companies = await seedCompany(knex, adminId);
  if (admin) await assignDefaultCompany(knex, admin.id);
  const uoms = await seedUnitsOfMeasure(knex, adminId);
  await seedPartners(knex, adminId); // titles, industries (not counted in `added`: test/service/seed.test.ts lists its keys)
  await seedProducts(knex, adminId); // categories, attributes and their options (idem)
  await seedInventories(knex, adminId); // locations, warehouse WH, operation types, sequences, routes, rules (idem)
  await seedAccounts(knex, adminId); // chart of accounts, journals, taxes, payment terms, incoterms (idem)
  await seedSales(knex, adminId); // price list, team, tags, UTM data (idem)
  await seedProjects(knex, adminId); // the four project stages (idem)
  await fillMissingWords(knex, registry); // the words of what the seed wrote, for `search=`
  return { added: { users: admin ? 1 : 0, permissions, currencies, countries, states, companies, uoms }, admin };
}
