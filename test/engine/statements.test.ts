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

  test("statements at full load leave knex's transactions a connection", async () => {
    const knex = createKnex(parseDatabaseUrl(target.databaseUrl));
    const statements = createStatements(knex);
    try {
      const sleep = target.name === 'sqlite' ? 'SELECT 1 AS n' : 'SELECT SLEEP(0.02) AS n';
      let statementsDone = 0;
      const load = Promise.all(Array.from({ length: 60 }, () => statements.all(sleep, []).then(() => statementsDone++)));
      await new Promise((resolve) => setTimeout(resolve, 5));
      // What /metrics reports as waiting: the statements beyond the connections lent.
      if (target.name !== 'sqlite') assert.ok(statements.waiting() > 40, `waiting: ${statements.waiting()}`);
      // Started while every lent connection is busy and statements wait for them.
      const inTransaction = await knex.transaction(async (trx) => (await trx.raw('SELECT 41 + 1 AS n')) && true);
      assert.ok(inTransaction);
      if (target.name !== 'sqlite') assert.ok(statementsDone < 60, `the transaction waited for ${statementsDone} statements`);
      await load;
      assert.is(statements.waiting(), 0);
    } finally {
      await statements.close();
      await knex.destroy(); // returns: the lender gave its connections back
    }
  });

  test.run();
}
