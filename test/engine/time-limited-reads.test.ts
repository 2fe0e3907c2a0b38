// Reads under a time limit (engine/sql/time-limited-reads.ts), which grouped totals use. On a
// SQLite file a long statement runs on a worker thread: the server's thread keeps its turns while
// it runs (a timer beside it fires on time), the statement is ended at the limit with a 503's
// error, and the next read works on a new worker. On MariaDB the server ends the statement
// (`SET STATEMENT max_statement_time`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStatements, isMariaDb, TimeLimitError, timeLimitedReads } from '../../engine/index.ts';
import { parseDatabaseUrl } from '../../src/app/config.ts';
import { createKnex } from '../../src/database/connection.ts';
import { databaseTargets } from '../helpers/targets.ts';

/** Counts to 300 million: seconds of work for SQLite, in one statement. */
const SLOW_SQLITE = 'WITH RECURSIVE counted(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM counted WHERE n < ?) SELECT COUNT(*) AS total FROM counted';

/** The longest gap between the ticks of a 10 ms timer while `work` runs. */
async function longestGap<T>(work: () => Promise<T>): Promise<{ gap: number; outcome: T | Error }> {
  let last = performance.now();
  let gap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 10);
  try {
    return { gap, outcome: await work() };
  } catch (error) {
    return { gap, outcome: error as Error };
  } finally {
    clearInterval(ticker);
    gap = Math.max(gap, performance.now() - last);
  }
}

for (const target of databaseTargets()) {
  const test = suite(`time-limited reads [${target.name}]`);
  const dir = mkdtempSync(join(tmpdir(), 'erp-limited-'));
  const databaseUrl = target.name === 'sqlite' ? `sqlite:${join(dir, 'reads.sqlite')}` : target.databaseUrl;
  const config = parseDatabaseUrl(databaseUrl);
  const knex = createKnex(config);
  const statements = createStatements(knex);
  let reads: ReturnType<typeof timeLimitedReads>;

  test.before(async () => {
    await knex.schema.createTable('limited_rows', (table) => {
      table.increments('id');
      table.string('name');
    });
    await knex('limited_rows').insert([{ name: 'a' }, { name: 'b' }]);
    reads = timeLimitedReads({
      dialect: target.name,
      statements,
      limitMs: 300,
      mariadb: await isMariaDb(knex),
      ...(config.client === 'sqlite' && { filename: config.filename }),
    });
  });
  test.after(async () => {
    await reads.close();
    await knex.schema.dropTableIfExists('limited_rows');
    await statements.close();
    await knex.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a read within the limit answers its rows', async () => {
    const rows = await reads.all('SELECT COUNT(*) AS total FROM limited_rows WHERE name <> ?', ['z']);
    assert.is(Number(rows[0]!.total), 2);
  });

  test('a statement past the limit is ended with a TimeLimitError (503, Retry-After), and the server’s thread keeps its turns', async () => {
    const started = performance.now();
    const [sql, params] = target.name === 'sqlite' ? [SLOW_SQLITE, [300_000_000]] : ['SELECT SLEEP(?) AS slept', [5]];
    const { gap, outcome } = await longestGap(() => reads.all(sql, params));
    const took = performance.now() - started;
    assert.instance(outcome, TimeLimitError, String(outcome));
    assert.is((outcome as TimeLimitError).statusCode, 503);
    assert.is((outcome as TimeLimitError).headers['retry-after'], '30');
    assert.ok(took < 3000, `ended at the limit, not at the statement's end (${Math.round(took)} ms)`);
    assert.ok(gap < 150, `the event loop kept its turns while the statement ran (longest gap ${Math.round(gap)} ms)`);
  });

  test('after one was ended, the next read works', async () => {
    const rows = await reads.all('SELECT name FROM limited_rows ORDER BY id', []);
    assert.equal(
      rows.map((row) => row.name),
      ['a', 'b'],
    );
  });

  if (target.name === 'mysql') {
    test('at most `slots` run at once; the next waits its turn, and one that waits past the limit answers 503 without having run', async () => {
      const oneAtATime = timeLimitedReads({ dialect: 'mysql', statements, limitMs: 1000, mariadb: await isMariaDb(knex), slots: 1 });
      const started = performance.now();
      const outcomes = await Promise.all(
        [0, 1, 2].map((i) =>
          oneAtATime.all('SELECT SLEEP(?) AS slept, ? AS n', [0.6, i]).then(
            (rows) => ({ n: Number(rows[0]!.n), at: performance.now() - started }),
            (error: Error) => error,
          ),
        ),
      );
      await oneAtATime.close();
      // The second ran after the first (not beside it), and within the limit though it waited 0.6 s
      // first; the third would have waited 1.2 s.
      const [first, second, third] = outcomes as [{ n: number; at: number }, { n: number; at: number }, Error];
      assert.is(first.n, 0);
      assert.is(second.n, 1);
      assert.ok(second.at >= 1150, `the second ran after the first (${Math.round(second.at)} ms)`);
      assert.instance(third, TimeLimitError);
    });
  }

  test('an error of the statement is the driver’s, not a time limit', async () => {
    const { outcome } = await longestGap(() => reads.all('SELECT missing_column FROM limited_rows', []));
    assert.instance(outcome, Error);
    assert.not.instance(outcome, TimeLimitError);
  });

  test.run();
}
