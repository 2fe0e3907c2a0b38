// The engine's prepared statements (engine/sql/statements.ts): each connection keeps a bounded
// set of them. Many distinct SQL texts, then the first ones again, must all still run: on
// MySQL/MariaDB a statement the engine holds must never be one mysql2's own cache has closed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStatements } from '../../engine/sql/statements.ts';
import { parseDatabaseUrl } from '../../src/config.ts';
import { createKnex } from '../../src/db.ts';
import { databaseTargets } from '../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`prepared statements [${target.name}]`);

  test('more distinct statements than any cache holds, then the first ones again', async () => {
    const knex = createKnex(parseDatabaseUrl(target.databaseUrl));
    const statements = createStatements(knex);
    try {
      const texts = 700; // past the engine's bound per connection and mysql2's (128 and 256)
      const run = async (i: number) => {
        const [row] = await statements.all(`SELECT ? + ${i} AS n`, [1000]);
        assert.is(Number(row!.n), 1000 + i, `statement ${i}`);
      };
      for (let i = 0; i < texts; i++) await run(i);
      for (let i = 0; i < texts; i += 3) await run(i);
      // Several connections at once, each with its own statements.
      await Promise.all(Array.from({ length: 40 }, (_, i) => run(i)));
    } finally {
      await statements.close();
      await knex.destroy();
    }
  });

  test.run();
}
