// The connection lender of the engine's MySQL statements (engine/sql/connection-lender.ts), on a
// pool that records what it is asked: connections are reused without going back to the pool,
// never more than `max` are lent, knex's own waiters and broken connections get theirs back.
import { setTimeout as sleep } from 'node:timers/promises';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connectionLender } from '../../engine/sql/connection-lender.ts';

interface FakeConnection {
  id: number;
  broken?: boolean;
}

function fakePool() {
  let next = 0;
  const state = { acquired: 0, released: [] as number[], waiting: 0, failNext: false };
  return {
    state,
    pool: {
      async acquire(): Promise<FakeConnection> {
        await sleep(1);
        if (state.failNext) {
          state.failNext = false;
          throw new Error('pool timeout');
        }
        state.acquired++;
        return { id: ++next };
      },
      release: (connection: FakeConnection) => void state.released.push(connection.id),
      usable: (connection: FakeConnection) => !connection.broken,
      waiting: () => state.waiting,
    },
  };
}

/** Work that holds its connection until the test lets it go. */
function held() {
  const seen: FakeConnection[] = [];
  const gates: (() => void)[] = [];
  const work = (connection: FakeConnection) =>
    new Promise<number>((resolve) => {
      seen.push(connection);
      gates.push(() => resolve(connection.id));
    });
  const releaseAll = () => {
    for (const open of gates.splice(0)) open();
  };
  return { seen, work, releaseAll };
}

const test = suite('connection lender');

test('statements one after another run on one connection, acquired once', async () => {
  const { pool, state } = fakePool();
  const lender = connectionLender(pool, 4, 1000);
  const ids = [];
  for (let i = 0; i < 20; i++) ids.push(await lender.withConnection(async (connection) => connection.id));
  assert.equal(new Set(ids), new Set([1]));
  assert.is(state.acquired, 1);
  assert.equal(state.released, []);
  lender.close();
  assert.equal(state.released, [1]);
});

test('never more than max lent: the others wait and get a finished statement’s connection', async () => {
  const { pool, state } = fakePool();
  const lender = connectionLender(pool, 3, 1000);
  const { seen, work, releaseAll } = held();
  const results = Array.from({ length: 10 }, () => lender.withConnection(work));
  await sleep(20);
  assert.is(state.acquired, 3);
  assert.is(seen.length, 3);
  while (seen.length < 10) {
    releaseAll();
    await sleep(1);
  }
  releaseAll();
  const ids = await Promise.all(results);
  assert.is(state.acquired, 3);
  assert.ok(ids.every((id) => id >= 1 && id <= 3));
  lender.close();
});

test('when all are busy, statements of requests under way go before the first statements of new requests', async () => {
  const { pool } = fakePool();
  const lender = connectionLender(pool, 1, 1000);
  const { seen, work, releaseAll } = held();
  const busy = lender.withConnection(work);
  await sleep(5);
  const order: string[] = [];
  const statement = (name: string, opening: boolean) =>
    lender.withConnection((connection) => {
      order.push(name);
      return work(connection);
    }, opening);
  // Arriving in this order while the one connection is busy: two requests open, two go on.
  const queued = [statement('new request A', true), statement('under way B', false), statement('new request C', true), statement('under way D', false)];
  assert.is(lender.waiting(), 4);
  while (seen.length < 5) {
    releaseAll();
    await sleep(1);
  }
  releaseAll();
  await Promise.all([busy, ...queued]);
  assert.equal(order, ['under way B', 'under way D', 'new request A', 'new request C']);
  assert.is(lender.waiting(), 0);
  lender.close();
});

test('a connection goes back to the pool when someone waits there', async () => {
  const { pool, state } = fakePool();
  const lender = connectionLender(pool, 4, 1000);
  await lender.withConnection(async () => undefined);
  state.waiting = 1;
  await lender.withConnection(async () => undefined);
  assert.equal(state.released, [1]);
  lender.close();
});

test('an idle connection goes back to the pool after idleMs', async () => {
  const { pool, state } = fakePool();
  const lender = connectionLender(pool, 4, 30);
  await lender.withConnection(async () => undefined);
  await sleep(10);
  assert.equal(state.released, []);
  await sleep(60);
  assert.equal(state.released, [1]);
  // The next statement acquires again.
  await lender.withConnection(async () => undefined);
  assert.is(state.acquired, 2);
  lender.close();
});

test('a broken connection is given back, not reused', async () => {
  const { pool, state } = fakePool();
  const lender = connectionLender(pool, 4, 1000);
  await lender.withConnection(async (connection) => {
    connection.broken = true;
  });
  assert.equal(state.released, [1]);
  assert.is(await lender.withConnection(async (connection) => connection.id), 2);
  lender.close();
});

test('a failed statement keeps its connection usable; a failed acquire frees its slot', async () => {
  const { pool, state } = fakePool();
  const lender = connectionLender(pool, 1, 1000);
  try {
    await lender.withConnection(async () => {
      throw new Error('syntax error');
    });
    assert.unreachable('the statement failed');
  } catch (error) {
    assert.is((error as Error).message, 'syntax error');
  }
  assert.is(await lender.withConnection(async (connection) => connection.id), 1);
  lender.close();
  state.failNext = true;
  const fresh = connectionLender(pool, 1, 1000);
  try {
    await fresh.withConnection(async () => undefined);
    assert.unreachable('the acquire failed');
  } catch (error) {
    assert.is((error as Error).message, 'pool timeout');
  }
  assert.is(await fresh.withConnection(async (connection) => connection.id), 2);
  fresh.close();
});

test.run();
