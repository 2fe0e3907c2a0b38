// The partners and products reference data: the standard titles, industries, product category
// tree and attributes are there after the first start, and seeding again adds nothing, not even
// a seeded row that was renamed or deleted since.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createKnex } from '../../../src/database/connection.ts';
import { migrateLatest } from '../../../src/database/migrations.ts';
import { seed } from '../../../src/seed/index.ts';
import { API, sharedApp } from '../../helpers/app.ts';
import { databaseTargets, inThisRun } from '../../helpers/targets.ts';

const TABLES = ['partners_titles', 'partners_industries', 'partners_tags', 'products_categories', 'products_tags', 'products_attributes', 'products_attribute_options'];
const SEED_ADMIN = { adminEmail: 'owner@example.com', adminName: 'Owner', adminPassword: 'owner-password-1' };

for (const target of databaseTargets()) {
  const test = suite(`partners and products seed [${target.name}]`);

  test('the standard titles and industries are listed', async () => {
    const { client, token } = await sharedApp(target);
    const titles = await client.get(`${API}/partners/titles?per_page=100&sort=id`, { token });
    const byName = new Map(titles.body.data.map((t: any) => [t.name, t.short_name]));
    for (const [name, short] of [
      ['Doctor', 'Dr.'],
      ['Madam', 'Mrs'],
      ['Miss', 'Miss'],
      ['Mister', 'Mr.'],
      ['Professor', 'Prof.'],
    ]) {
      assert.is(byName.get(name), short, name);
    }
    const industries = await client.get(`${API}/partners/industries?per_page=100&filter[name]=manufacturing`, { token });
    assert.is(industries.body.data.length, 1);
    assert.is(industries.body.data[0].is_active, true);
    const partnerTags = await client.get(`${API}/partners/tags?filter[name]=no-such-seeded-tag`, { token });
    assert.is(partnerTags.status, 200);
  });

  test.run();
}

// Seeding logic is the same on every database: once, on a database of its own in memory.
const once = suite('partners and products seed: idempotent');

once('seeding adds each table once; renamed or deleted seeded rows are not brought back', async () => {
  // A database of its own (in memory): the shared one is used by the other suites.
  const knex = createKnex({ client: 'sqlite', filename: ':memory:' });
  try {
    await migrateLatest(knex);
    await seed(knex, SEED_ADMIN);
    const count = async (table: string) => Number((await knex(table).count({ n: '*' }).first())!.n);
    assert.is(await count('partners_titles'), 5);
    assert.ok((await count('partners_industries')) >= 10);
    assert.is(await count('partners_tags'), 0, 'no partner tags, as in the original');
    assert.is(await count('products_tags'), 0);
    assert.is(await count('products_categories'), 10);
    assert.ok((await count('products_attributes')) >= 1, 'an attribute for the options to live under');

    await knex('partners_titles').where('name', 'Doctor').update({ name: 'Dr' });
    await knex('partners_industries').where('name', 'Mining').delete();
    await knex('products_categories').where('name', 'Internal').update({ name: 'In-house', full_name: 'All / In-house' });
    const before = Object.fromEntries(await Promise.all(TABLES.map(async (table) => [table, await count(table)])));
    await seed(knex, SEED_ADMIN);
    const after = Object.fromEntries(await Promise.all(TABLES.map(async (table) => [table, await count(table)])));
    assert.equal(after, before);
    assert.is(await knex('partners_titles').where('name', 'Doctor').first(), undefined);
    assert.is(await knex('products_categories').where('name', 'Internal').first(), undefined);
  } finally {
    await knex.destroy();
  }
});

// The same in both halves of a run on both databases (test/run.ts): run in the SQLite one only.
if (inThisRun('sqlite')) once.run();
