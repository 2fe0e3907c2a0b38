// The change feed as a sync job uses it: two service processes on one database take 1,000
// concurrent writes of several kinds (creates, updates, soft and hard deletes, restores, orders
// with lines, confirmations that create deliveries and moves, cancellations) while a consumer
// follows GET /changes; at the end its replica equals what the API lists. On SQLite and, when
// TEST_MYSQL_DATABASE_URL is set, on MySQL/MariaDB.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type ServiceDatabase, serviceDatabases } from '../helpers/service-databases.ts';
import { type Answer, call, loginTo, type ServiceProcess, startService } from '../helpers/service-process.ts';

const API = '/admin/api/v1';
const RESOURCES = ['inventories/tags', 'sales/orders', 'inventories/deliveries', 'inventories/moves'] as const;
const LIST_PATHS: Record<(typeof RESOURCES)[number], string> = {
  'inventories/tags': '/inventories/tags',
  'sales/orders': '/sales/orders',
  'inventories/deliveries': '/inventories/deliveries',
  'inventories/moves': '/inventories/moves',
};
const WRITES = 1000;
const CONCURRENCY = 16;

const targets = serviceDatabases('feed', { migrated: true });

for (const target of targets) {
  const test = suite(`change feed replica [${target.name}]`);
  let database: Awaited<ReturnType<ServiceDatabase['prepare']>>;
  let processes: ServiceProcess[] = [];
  let tokens: string[] = [];

  test.before(async () => {
    database = await target.prepare();
    processes = await Promise.all([0, 1].map(() => startService({ DATABASE_URL: database.url })));
    tokens = await Promise.all(processes.map((running) => loginTo(running.baseUrl)));
  });

  test.after(async () => {
    // A server error's cause is in the processes' logs.
    for (const running of processes) for (const line of running.output().split('\n')) if (/"level":50/.test(line)) console.log(line.slice(0, 2000));
    for (const running of processes) await running.stop();
    await database.drop();
  });

  test('a consumer following the feed while two processes write 1,000 times at once ends with what the API lists', async () => {
    const send = (i: number, method: string, path: string, body?: unknown) => call(processes[i % 2]!.baseUrl, method, `${API}${path}`, { token: tokens[i % 2], body });
    const product = await send(0, 'POST', '/inventories/products', { type: 'goods', name: 'Replica bolt', price: 3, category_id: 1, is_storable: true });
    assert.is(product.status, 201, JSON.stringify(product.body));
    const partner = await send(0, 'POST', '/partners/partners', { account_type: 'company', name: 'Replica customer' });
    assert.is(partner.status, 201, JSON.stringify(partner.body));
    const line = (qty: number) => ({ product_id: product.body.data.id, product_qty: qty, price_unit: 10 });
    const order = (i: number) => ({ partner_id: partner.body.data.id, payment_term_id: 1, date_order: '2026-11-26', lines: [line(1 + (i % 4)), line(2)] });

    // The consumer: follows the cursor through either process until told that the writes are over,
    // then once more to the end.
    const replica = new Map<string, Map<number, Record<string, unknown>>>(RESOURCES.map((resource) => [resource, new Map()]));
    let writing = true;
    let pages = 0;
    const consume = async () => {
      let cursor = '0';
      for (;;) {
        const finalRound = !writing;
        let more = true;
        while (more) {
          const page = await call(processes[pages++ % 2]!.baseUrl, 'GET', `${API}/changes`, {
            token: tokens[0],
            query: { after: cursor, resources: RESOURCES.join(','), limit: 200 },
          });
          if (page.status === 503) {
            // The database is busy: as a consumer should, wait as told and ask again.
            await new Promise((resolve) => setTimeout(resolve, Number(page.headers['retry-after'] ?? 1) * 1000));
            continue;
          }
          assert.is(page.status, 200, JSON.stringify(page.body));
          for (const change of page.body.data) apply(replica, change);
          cursor = page.body.next_cursor;
          more = page.body.has_more;
        }
        if (finalRound) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const consumer = consume();
    consumer.catch(() => {}); // awaited below; this only keeps an early failure from ending the run

    // The writers: a mix of kinds on records that other writers touch too, so that some writes
    // race (a tag deleted twice, an order confirmed and canceled at once) and are refused.
    const tags: number[] = [];
    const orders: number[] = [];
    const pick = (ids: number[], i: number) => ids[(i * 7919) % Math.max(ids.length, 1)];
    const answers: { op: string; answer: Answer }[] = [];
    const operations: ((i: number) => Promise<[string, Answer] | undefined>)[] = [
      async (i) => {
        const created = await send(i, 'POST', '/inventories/tags', { name: `Replica tag ${i}` });
        if (created.status === 201) tags.push(created.body.data.id);
        return ['create tag', created];
      },
      async (i) => {
        const id = pick(tags, i);
        return id ? ['rename tag', await send(i, 'PUT', `/inventories/tags/${id}`, { name: `Replica tag ${i} renamed` })] : undefined;
      },
      async (i) => {
        const id = pick(tags, i);
        return id ? ['delete tag', await send(i, 'DELETE', `/inventories/tags/${id}`)] : undefined;
      },
      async (i) => {
        const id = pick(tags, i + 1);
        return id ? ['restore tag', await send(i, 'POST', `/inventories/tags/${id}/restore`)] : undefined;
      },
      async (i) => {
        const id = pick(tags, i + 2);
        return id ? ['force delete tag', await send(i, 'DELETE', `/inventories/tags/${id}/force`)] : undefined;
      },
      async (i) => {
        const created = await send(i, 'POST', '/sales/orders', order(i));
        if (created.status === 201) orders.push(created.body.data.id);
        return ['create order', created];
      },
      async (i) => {
        const id = pick(orders, i);
        return id ? ['update order', await send(i, 'PUT', `/sales/orders/${id}`, { ...order(i), lines: [line(5), line(1), line(3)] })] : undefined;
      },
      async (i) => {
        const id = pick(orders, i);
        return id ? ['confirm order', await send(i, 'POST', `/sales/orders/${id}/confirm`)] : undefined;
      },
      async (i) => {
        const id = pick(orders, i + 3);
        return id ? ['cancel order', await send(i, 'POST', `/sales/orders/${id}/cancel`)] : undefined;
      },
      async (i) => {
        const created = await send(i, 'POST', '/inventories/tags', { name: `Replica tag ${i} b` });
        if (created.status === 201) tags.push(created.body.data.id);
        return ['create tag', created];
      },
    ];
    let next = 0;
    const writer = async () => {
      while (next < WRITES) {
        const i = next++;
        const done = await operations[i % operations.length]!(i);
        if (done) answers.push({ op: done[0], answer: done[1] });
      }
    };
    try {
      await Promise.all(Array.from({ length: CONCURRENCY }, writer));
    } finally {
      writing = false;
      await consumer;
    }

    const failures = answers.filter(({ answer }) => answer.status >= 500 || answer.status === 0);
    assert.equal(
      failures.map(({ op, answer }) => `${op}: ${answer.status} ${JSON.stringify(answer.body)}`),
      [],
      'no write failed on the server',
    );
    for (const op of new Set(answers.map(({ op }) => op))) {
      const succeeded = answers.filter((entry) => entry.op === op && entry.answer.status < 300).length;
      assert.ok(succeeded > 0, `some ${op} succeeded`);
    }
    assert.ok(answers.filter(({ answer }) => answer.status < 300).length >= WRITES * 0.6, 'most writes succeeded');
    assert.ok(replica.get('inventories/deliveries')!.size > 0, 'confirmations made deliveries');

    for (const resource of RESOURCES) {
      const listed = await listAll(processes[1]!.baseUrl, tokens[1]!, LIST_PATHS[resource]);
      const mirrored = [...replica.get(resource)!.values()].filter((record) => !record.deleted_at);
      assert.equal(mirrored.map((record) => record.id).sort(byNumber), listed.map((record) => record.id).sort(byNumber), `${resource}: the replica has the records the API lists`);
      for (const record of listed) {
        const copy = replica.get(resource)!.get(record.id as number)!;
        const shown = Object.fromEntries(Object.keys(record).map((key) => [key, copy[key]]));
        assert.equal(shown, record, `${resource} ${record.id}: the replica's copy is the listed record`);
      }
      if (resource === 'inventories/tags') {
        const trashed = await listAll(processes[1]!.baseUrl, tokens[1]!, LIST_PATHS[resource], { 'filter[trashed]': 'only' });
        assert.equal(
          [...replica.get(resource)!.values()]
            .filter((record) => record.deleted_at)
            .map((record) => record.id)
            .sort(byNumber),
          trashed.map((record) => record.id).sort(byNumber),
          'the replica has the trashed tags too',
        );
      }
    }
  });

  test.run();
}

/** Applies one change to the replica: the record after it, or its removal. */
function apply(replica: Map<string, Map<number, Record<string, unknown>>>, change: any): void {
  const records = replica.get(change.resource);
  assert.ok(records, `a change of a resource not asked for: ${change.resource}`);
  const removed = change.kind === 'force_deleted' || (change.kind === 'deleted' && !change.record.deleted_at);
  if (removed) records.delete(change.record_id);
  else records.set(change.record_id, change.record);
}

async function listAll(baseUrl: string, token: string, path: string, query: Record<string, string> = {}) {
  const records: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const answer = await call(baseUrl, 'GET', `${API}${path}`, { token, query: { ...query, page: String(page), per_page: '100' } });
    assert.is(answer.status, 200, JSON.stringify(answer.body));
    records.push(...answer.body.data);
    if (page >= answer.body.meta.last_page) return records;
  }
}

const byNumber = (a: unknown, b: unknown) => Number(a) - Number(b);
