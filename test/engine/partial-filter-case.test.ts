// A partial filter ignores case on every column, whatever its collation: the engine leaves out
// the reference's LOWER() only where the column's LIKE already ignores case (SQLite; a `_ci`
// collation on MySQL/MariaDB), and keeps it on a case-sensitive (`_bin`) column.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readSchemaBounds } from '../../engine/index.ts';
import { loadResources } from '../../src/app/build-app.ts';
import { API, startApp, type TestApp } from '../helpers/app.ts';
import { databaseTargets, freshDatabase, type Target } from '../helpers/targets.ts';

const BANKS = `${API}/support/banks`;

/** Banks whose name matches `filter[name]=value`. */
async function namesMatching(app: TestApp, token: string, value: string): Promise<string[]> {
  const response = await app.client.get(`${BANKS}?filter[name]=${encodeURIComponent(value)}&per_page=100`, { token });
  assert.is(response.status, 200, response.text);
  return response.body.data.map((bank: { name: string }) => bank.name);
}

for (const target of databaseTargets()) {
  const test = suite(`partial filter and collation [${target.name}]`);

  async function withApp(binaryNames: boolean, work: (app: TestApp, token: string) => Promise<void>): Promise<void> {
    const database = await freshDatabase(target, binaryNames ? 'case_bin' : 'case_ci', { migrated: true });
    let app: TestApp | undefined;
    try {
      app = await startApp(database.target as Target, {
        minimalSeed: true,
        prepare: async (knex) => {
          if (binaryNames) await knex.raw('ALTER TABLE `banks` MODIFY `name` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL');
        },
      });
      await work(app, await app.login());
    } finally {
      await app?.close();
      await database.drop();
    }
  }

  /** The name column is read as `likeIgnoresCase`, and names in every case match a filter in any case. */
  async function matchesEveryCase(binaryNames: boolean, likeIgnoresCase: true | undefined): Promise<void> {
    await withApp(binaryNames, async (app, token) => {
      const bounds = await readSchemaBounds(app.knex, loadResources());
      assert.is(bounds.get('banks')?.get('name')?.likeIgnoresCase, likeIgnoresCase);
      for (const name of ['Zebra Savings', 'ZEBRA TRUST', 'zebra credit', 'Lion Bank']) {
        const response = await app.client.post(BANKS, { token, body: { name } });
        assert.is(response.status, 201, response.text);
      }
      assert.equal((await namesMatching(app, token, 'zEbRa')).sort(), ['ZEBRA TRUST', 'Zebra Savings', 'zebra credit']);
      assert.equal(await namesMatching(app, token, 'LION'), ['Lion Bank']);
    });
  }

  test('the column as migrated: LIKE alone, and every case matches', () => matchesEveryCase(false, true));

  if (target.name === 'mysql') {
    test('a case-sensitive (_bin) column keeps LOWER(): every case still matches', () => matchesEveryCase(true, undefined));
  }

  test.run();
}
