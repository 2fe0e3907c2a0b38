// A long unit of writing lets the event loop run between its statements (engine/sql/breather.ts):
// on SQLite every statement answers synchronously, so without it a 1,000-line order held every
// other request until it committed. Still one transaction: what it wrote commits whole or not at all.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStatements, inTransaction } from '../../engine/index.ts';
import { SLICE_MS } from '../../engine/sql/breather.ts';
import { createKnex } from '../../src/database/connection.ts';

const test = suite('breather');
const dir = mkdtempSync(join(tmpdir(), 'erp-breather-'));
const knex = createKnex({ client: 'sqlite', filename: join(dir, 'erp.sqlite') });

test.before(async () => {
  await knex.schema.createTable('items', (table) => {
    table.increments('id');
    table.integer('n').notNullable();
  });
});

test.after(async () => {
  await knex.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** Whether a callback queued now runs before `work` ends. */
async function othersRunDuring(work: () => Promise<void>): Promise<boolean> {
  let ran = false;
  setImmediate(() => (ran = true));
  let before = false;
  await work().then(() => (before = ran));
  return before;
}

test('a transaction of many statements lets other callbacks run before it ends, and commits whole', async () => {
  await knex('items').delete();
  const ran = await othersRunDuring(() =>
    inTransaction(knex, async (trx) => {
      const until = performance.now() + 4 * SLICE_MS;
      for (let n = 0; performance.now() < until || n < 50; n++) await trx('items').insert({ n });
    }),
  );
  assert.ok(ran, 'another callback ran inside the transaction');
  assert.ok(Number((await knex('items').count({ count: '*' }).first())!.count) >= 50);
});

test('a transaction whose slice runs out just before COMMIT commits, and the next one starts', async () => {
  await knex('items').delete();
  await inTransaction(knex, async (trx) => {
    await trx('items').insert({ n: 1 });
    const until = performance.now() + 2 * SLICE_MS;
    while (performance.now() < until); // the work after the last statement outlasts the slice
  });
  await inTransaction(knex, (trx) => trx('items').insert({ n: 2 }));
  assert.equal(await knex('items').orderBy('n').pluck('n'), [1, 2]);
});

test('a rolled-back transaction leaves nothing, however often it let others run', async () => {
  await knex('items').delete();
  const error = await inTransaction(knex, async (trx) => {
    const until = performance.now() + 4 * SLICE_MS;
    while (performance.now() < until) await trx('items').insert({ n: 3 });
    throw new Error('the unit fails');
  }).catch((reason: Error) => reason);
  assert.is(error?.message, 'the unit fails');
  assert.is(Number((await knex('items').count({ count: '*' }).first())!.count), 0);
});

test('reads of the engine on SQLite let other callbacks run between them', async () => {
  const statements = createStatements(knex);
  try {
    let ran = false;
    setImmediate(() => (ran = true));
    // Reads until the callback ran, for 40 slices at most: on a loaded machine one read may take a
    // whole slice, and 4 slices of reads were sometimes one read. Without the breather the reads'
    // promises resolve among themselves and the callback never runs.
    const until = performance.now() + 40 * SLICE_MS;
    while (!ran && performance.now() < until) await statements.all('SELECT COUNT(*) AS n FROM items', []);
    assert.ok(ran, 'another callback ran between the reads');
  } finally {
    await statements.close();
  }
});

test.run();
