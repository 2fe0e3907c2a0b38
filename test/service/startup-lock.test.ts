// The start-up lock (src/database/startup-lock.ts) while another process is writing: on SQLite a
// migrating process can hold the write lock for longer than the busy timeout (seen in CI: three
// processes starting together on a fresh file, one of them failed its start with "database is
// locked"). A process that waits for the lock keeps waiting, up to STARTUP_WAIT, and then takes it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import knexFactory, { type Knex } from 'knex';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { withStartupLock } from '../../src/database/startup-lock.ts';
import { inThisRun } from '../helpers/targets.ts';

const test = suite('startup lock');
let dir: string;

/** A knex on the file whose statements wait 50 ms for a lock (the service waits 5 s), so that the test is short. */
function impatientKnex(file: string): Knex {
  return knexFactory({
    client: 'better-sqlite3',
    connection: { filename: file },
    useNullAsDefault: true,
    pool: {
      afterCreate: (connection: Database.Database, done: (error: Error | null, connection: Database.Database) => void) => {
        connection.pragma('busy_timeout = 50');
        done(null, connection);
      },
    },
  });
}

if (inThisRun('sqlite')) {
  test.before(() => {
    dir = mkdtempSync(join(tmpdir(), 'erp-startup-lock-'));
  });
  test.after(() => rmSync(dir, { recursive: true, force: true }));

  test('a process waiting for the lock while another holds SQLite’s write lock past the busy timeout waits, then takes it', async () => {
    const file = join(dir, 'busy.sqlite');
    // The other process: in the middle of a long write (a migration), for 20 busy timeouts.
    const writer = new Database(file);
    writer.pragma('journal_mode = WAL');
    writer.exec('CREATE TABLE migrated (id INTEGER PRIMARY KEY)');
    writer.exec('BEGIN IMMEDIATE');
    writer.exec('INSERT INTO migrated (id) VALUES (1)');
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        writer.exec('COMMIT');
        resolve();
      }, 1000),
    );
    const knex = impatientKnex(file);
    try {
      const started = Date.now();
      const result = await withStartupLock(knex, async () => (await knex('migrated').count({ rows: '*' }))[0]!.rows, 10_000);
      assert.is(Number(result), 1, 'the work ran after the other write committed');
      assert.ok(Date.now() - started >= 900, `it waited for the write (${Date.now() - started} ms)`);
      await released;
      assert.equal(await knex('startup_lock').select('name'), [], 'the lock is released after the work');
    } finally {
      await released;
      writer.close();
      await knex.destroy();
    }
  });

  test('it still gives up after its wait, naming the holder', async () => {
    const file = join(dir, 'held.sqlite');
    const knex = impatientKnex(file);
    try {
      let inside: () => void;
      const holding = new Promise<void>((resolve) => (inside = resolve));
      let finish: () => void;
      const first = withStartupLock(
        knex,
        () =>
          new Promise<void>((resolve) => {
            finish = resolve;
            inside();
          }),
        1000,
      );
      await holding;
      const refused = await withStartupLock(knex, async () => 'ran', 600).then(
        () => undefined,
        (error: Error) => error,
      );
      assert.ok(refused, 'the second process did not wait forever');
      assert.match(refused!.message, /Another process \(.+\) has been preparing the database for over 1 s/);
      finish!();
      await first;
    } finally {
      await knex.destroy();
    }
  });
}

test.run();
