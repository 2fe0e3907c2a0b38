// The engine's prepared statements (engine/sql/statements.ts): each connection keeps a bounded
// set of them. Many distinct SQL texts, then the first ones again, must all still run: on
// MySQL/MariaDB a statement the engine holds must never be one mysql2's own cache has closed.
import { statSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStatements, SQLITE_PAGE_CACHE_KIB } from '../../engine/sql/statements.ts';
import { parseDatabaseUrl } from '../../src/app/config.ts';
import { createKnex } from '../../src/database/connection.ts';
import { databaseTargets, freshDatabase, inThisRun } from '../helpers/targets.ts';

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

const sqliteFile = suite('prepared statements [sqlite file]');

// SQLite checkpoints its write-ahead log automatically only when a statement runs to its end: an
// `INSERT ... RETURNING` stopped after its row left the log growing for as long as the process ran.
sqliteFile('creates keep the write-ahead log within its automatic checkpoint', async () => {
  const { target, drop } = await freshDatabase({ name: 'sqlite', databaseUrl: 'sqlite::memory:' }, 'wal');
  const knex = createKnex(parseDatabaseUrl(target.databaseUrl));
  const statements = createStatements(knex, { insertReturns: true });
  try {
    await knex.schema.createTable('notes', (table) => {
      table.increments('id');
      table.string('text');
    });
    const [{ page_size: pageSize }] = await knex.raw('PRAGMA page_size');
    const [{ wal_autocheckpoint: checkpointPages }] = await knex.raw('PRAGMA wal_autocheckpoint');
    const inserts = 3 * checkpointPages; // each commit adds at least one page to the log
    for (let i = 0; i < inserts; i++) {
      const row = await statements.insertReturning('INSERT INTO `notes` (`text`) VALUES (?) RETURNING *', [`note ${i}`]);
      assert.is(row.text, `note ${i}`);
    }
    const file = parseDatabaseUrl(target.databaseUrl) as { filename: string };
    const logPages = statSync(`${file.filename}-wal`).size / (pageSize + 24); // a frame: a page and its header
    assert.ok(logPages <= checkpointPages + 10, `the log holds ${Math.round(logPages)} pages after ${inserts} creates`);
  } finally {
    await statements.close();
    await knex.destroy();
    await drop();
  }
});

sqliteFile("both connections keep SQLite's own page cache, not better-sqlite3's 16 MB", async () => {
  const { target, drop } = await freshDatabase({ name: 'sqlite', databaseUrl: 'sqlite::memory:' }, 'cache');
  const knex = createKnex(parseDatabaseUrl(target.databaseUrl));
  const statements = createStatements(knex);
  try {
    const [writing] = await knex.raw('PRAGMA cache_size');
    assert.equal(writing, { cache_size: -SQLITE_PAGE_CACHE_KIB });
    const [reading] = await statements.all('PRAGMA cache_size', []); // the read-only connection
    assert.equal(reading, { cache_size: -SQLITE_PAGE_CACHE_KIB });
    assert.is(SQLITE_PAGE_CACHE_KIB, 2000);
  } finally {
    await statements.close();
    await knex.destroy();
    await drop();
  }
});

// A SQLite file's: not in the MySQL half of a run on both databases (test/run.ts).
if (inThisRun('sqlite')) sqliteFile.run();
