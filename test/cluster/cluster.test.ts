// The service on a three-node MariaDB Galera cluster, one process per node, as an operator runs
// it behind a load balancer without stickiness. Runs when TEST_GALERA_URLS names the nodes
// (.ci/run starts the cluster with test/cluster/galera.sh). Each test sends its requests through
// all three processes at once: Galera certifies write sets at commit, so conflicting writes on two
// nodes end in a deadlock error on one of them, and reads on a node may lag behind a commit on
// another unless the session asks for causal reads.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { call, loginTo, statusCounts, type ServiceProcess } from '../helpers/service-process.ts';
import { clusterDatabase, galeraNodes, holdBehind, isolateNode, startNode, startOnEveryNode, stopNode, waitFor, type ClusterDatabase } from './galera.ts';

const API = '/admin/api/v1';

if (galeraNodes().length >= 3) {
  const test = suite('galera cluster');
  let database: ClusterDatabase;
  let processes: ServiceProcess[] = [];
  let tokens: string[] = [];
  const ids: Record<string, number> = {};
  let loadCount = 0;
  let loadRuns = 0;
  /** The process of node n (0-based), round robin. */
  const via = (n: number) => {
    if (processes.length === 0) throw new Error('no service process is running: the first test, which starts them, failed');
    return processes[n % processes.length]!;
  };
  const send = (n: number, method: string, path: string, options: { body?: unknown; headers?: Record<string, string>; token?: string; timeoutMs?: number } = {}) =>
    call(via(n).baseUrl, method, `${API}${path}`, { token: tokens[n % tokens.length], ...options });

  test.before(async () => {
    database = await clusterDatabase('erp_cluster');
  });

  test.after(async () => {
    for (const running of processes) await running.stop();
    await database?.drop();
  });

  test('three processes started at once on three nodes of a fresh database all start, and seed once', async () => {
    processes = await startOnEveryNode(database);
    assert.is(processes.length, 3);
    const [knex] = database.knexes;
    assert.equal(await knex!('users').pluck('email'), ['admin@example.com'], 'one administrator');
    assert.is(Number((await knex!('companies').count({ n: '*' }).first())!.n), 1, 'one company');
    assert.is(Number((await knex!('knex_migrations_lock').count({ n: '*' }).first())!.n), 1, "knex's lock table holds one row");
    for (const [table, column] of [
      ['currencies', 'name'],
      ['permissions', 'name'],
      ['inventories_locations', 'full_name'],
      ['inventories_operation_types', 'name'],
      ['knex_migrations', 'name'],
    ] as const) {
      const doubles = await knex!(table).select(column).count({ n: '*' }).groupBy(column).havingRaw('COUNT(*) > 1');
      assert.equal(doubles, [], `no ${table} twice`);
    }
    tokens = await Promise.all(processes.map((running) => loginTo(running.baseUrl)));
    for (const running of processes) assert.is((await call(running.baseUrl, 'GET', '/health')).status, 200);
  });

  test('a process restarted after the concurrent start starts normally', async () => {
    const stopped = processes[2]!;
    assert.is(await stopped.stop(), 0);
    processes[2] = (await startOnEveryNode({ ...database, urls: [database.urls[2]!] }))[0]!;
    tokens[2] = await loginTo(processes[2].baseUrl);
  });

  test('60 receipts created at once across the nodes: all 201 (a few after Retry-After at most), with names that stay unique', async () => {
    const category = (await send(0, 'GET', '/products/categories')).body.data[0].id;
    const product = await send(0, 'POST', '/inventories/products', { body: { type: 'goods', name: 'Cluster bolt', price: 1, category_id: category } });
    assert.is(product.status, 201, JSON.stringify(product.body));
    ids.product = product.body.data.id;
    const create = (i: number) => send(i, 'POST', '/inventories/receipts', { body: { moves: [{ product_id: ids.product, product_uom_qty: 1 + (i % 3) }] } });
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => create(i)));
    // Every receipt takes the next number of one counter, so the burst is 60 writes of one row
    // across three nodes, which the service retries within its budget (engine/sql/retry.ts). On a
    // host that the rest of the suite keeps busy the budget can run out for one or two: those
    // answer 503 with Retry-After, and a client sending again after it gets its 201. Without the
    // service's retries most of the burst answers 503.
    const busy = answers.flatMap((answer, i) => (answer.status === 503 ? [i] : []));
    assert.equal(
      statusCounts(answers.filter((answer) => answer.status !== 503)),
      { 201: 60 - busy.length },
      JSON.stringify(answers.filter((a) => a.status !== 201).map((a) => a.body)),
    );
    assert.ok(busy.length <= 6, `${busy.length} of 60 answered 503: the service gave up on more than a tenth`);
    for (const i of busy) {
      const retryAfter = Number(answers[i]!.headers['retry-after']);
      assert.ok(retryAfter > 0, 'a 503 says when to send again');
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
      answers[i] = await create(i);
      assert.is(answers[i]!.status, 201, JSON.stringify(answers[i]!.body));
    }
    const names = answers.map((answer) => answer.body.data.name);
    assert.is(new Set(names).size, 60, 'sixty names');
    const stored = await database.knexes[1]!('inventories_operations').whereIn('name', names).count({ n: '*' }).first();
    assert.is(Number(stored!.n), 60);
  });

  test('12 validations of 10 units from a stock of 10 at once across the nodes: one 200, eleven 422, 0 left', async () => {
    const receipt = await send(0, 'POST', '/inventories/receipts', { body: { moves: [{ product_id: ids.product, product_uom_qty: 10 }] } });
    assert.is((await send(0, 'POST', `/inventories/receipts/${receipt.body.data.id}/validate`)).status, 200);
    const onHandBefore = await onHand(ids.product!);
    const deliveries = [];
    for (let i = 0; i < 12; i++) {
      const delivery = await send(i, 'POST', '/inventories/deliveries', { body: { moves: [{ product_id: ids.product, product_uom_qty: onHandBefore }] } });
      assert.is(delivery.status, 201, JSON.stringify(delivery.body));
      deliveries.push(delivery.body.data.id);
    }
    const answers = await Promise.all(deliveries.map((id, i) => send(i, 'POST', `/inventories/deliveries/${id}/validate`)));
    assert.equal(statusCounts(answers), { 200: 1, 422: 11 }, JSON.stringify(answers.map((a) => a.body)));
    assert.is(await onHand(ids.product!), 0);
  });

  test('two PUTs with the same If-Match through two nodes at once, 20 times: one 200 and one 412 each time', async () => {
    const created = await send(0, 'POST', '/inventories/tags', { body: { name: 'If-Match cluster' } });
    assert.is(created.status, 201, JSON.stringify(created.body));
    const id = created.body.data.id;
    for (let round = 0; round < 20; round++) {
      const read = await send(round, 'GET', `/inventories/tags/${id}`);
      const etag = read.headers.etag as string;
      const names = [`first ${round}`, `second ${round}`];
      const answers = await Promise.all(names.map((name, i) => send(round + i, 'PUT', `/inventories/tags/${id}`, { body: { name }, headers: { 'if-match': etag } })));
      assert.equal(answers.map((answer) => answer.status).sort(), [200, 412], `round ${round}: ${answers.map((a) => `${a.status} ${JSON.stringify(a.body)}`).join(' | ')}`);
      const winner = names[answers.findIndex((answer) => answer.status === 200)];
      for (let node = 0; node < 3; node++) assert.is((await send(node, 'GET', `/inventories/tags/${id}`)).body.data.name, winner, `node ${node + 1} shows the winner`);
    }
  });

  test('one Idempotency-Key sent to two nodes at once: one record, the same answer twice', async () => {
    for (let round = 0; round < 20; round++) {
      const key = `cluster-key-${round}`;
      const body = { name: `Idempotent cluster tag ${round}` };
      const answers = await Promise.all([0, 1].map((i) => send(round + i, 'POST', '/inventories/tags', { body, headers: { 'idempotency-key': key } })));
      assert.equal(
        answers.map((answer) => answer.status),
        [201, 201],
        answers.map((a) => JSON.stringify(a.body)).join(' | '),
      );
      assert.is(answers[0]!.body.data.id, answers[1]!.body.data.id, 'the same record');
      const stored = await database.knexes[2]!('inventories_tags').where('name', body.name).count({ n: '*' }).first();
      assert.is(Number(stored!.n), 1, 'written once');
    }
  });

  /**
   * Runs `write` (through another node) while node `reader` is held behind the cluster, then `read`
   * through node `reader`, releasing the node 300 ms later: without causal reads the read sees the
   * node as it was before the write.
   */
  async function acrossLaggingNode<T>(reader: number, write: () => Promise<unknown>, read: () => Promise<T>): Promise<T> {
    const held = await holdBehind((reader % 3) + 1);
    let released: Promise<void> | undefined;
    try {
      await write();
      released = new Promise((resolve) => setTimeout(resolve, 300)).then(() => held.resume());
      return await read();
    } finally {
      await (released ?? held.resume());
    }
  }

  test('a client reads its own writes through any node, also through one that lags behind, while the cluster is busy writing', async () => {
    const load = writeLoad(60_000);
    try {
      for (let round = 0; round < 5; round++) {
        let id = 0;
        const shown = await acrossLaggingNode(
          round + 1,
          async () => {
            const created = await send(round, 'POST', '/inventories/tags', { body: { name: `Read-your-writes ${round}` } });
            assert.is(created.status, 201, JSON.stringify(created.body));
            id = created.body.data.id;
          },
          () => send(round + 1, 'GET', `/inventories/tags/${id}`),
        );
        assert.is(shown.status, 200, `round ${round}: a tag created through node ${(round % 3) + 1} is shown through node ${((round + 1) % 3) + 1}`);
        const listed = await acrossLaggingNode(
          round + 2,
          async () => assert.is((await send(round + 1, 'PUT', `/inventories/tags/${id}`, { body: { name: `Renamed ${round}` } })).status, 200),
          () => send(round + 2, 'GET', `/inventories/tags?filter[id]=${id}`),
        );
        assert.equal(
          listed.body.data.map((tag: { name: string }) => tag.name),
          [`Renamed ${round}`],
          `round ${round}: the rename is listed through node ${((round + 2) % 3) + 1}`,
        );
      }
    } finally {
      await load.stop();
    }
  });

  test('a logout or a permission removed through one node is refused by every node on the next request, also by one that lags behind', async () => {
    const load = writeLoad(60_000);
    try {
      const role = await send(0, 'POST', '/security/roles', { body: { name: 'Tag reader', permissions: ['view_any_inventory_tag', 'view_inventory_tag'] } });
      assert.is(role.status, 201, JSON.stringify(role.body));
      for (let round = 0; round < 5; round++) {
        const email = `reader${round}@example.com`;
        const user = await send(round, 'POST', '/security/users', { body: { name: `Reader ${round}`, email, password: 'reader-password', roles: [role.body.data.id] } });
        assert.is(user.status, 201, JSON.stringify(user.body));
        const token = await loginTo(via(round + 1).baseUrl, { email, password: 'reader-password' });
        for (let node = 0; node < 3; node++) assert.is((await send(node, 'GET', '/inventories/tags', { token })).status, 200);
        const afterLogout = await acrossLaggingNode(
          round + 1,
          async () => assert.is((await send(round, 'POST', '/logout', { token })).status, 200),
          () => send(round + 1, 'GET', '/inventories/tags', { token }),
        );
        assert.is(afterLogout.status, 401, `round ${round}: the logout is seen by the next node`);
        const again = await loginTo(via(round).baseUrl, { email, password: 'reader-password' });
        for (let node = 0; node < 3; node++) assert.is((await send(node, 'GET', '/inventories/tags', { token: again })).status, 200);
        const afterNarrowing = await acrossLaggingNode(
          round + 2,
          async () => assert.is((await send(round, 'PUT', `/security/roles/${role.body.data.id}`, { body: { permissions: ['view_inventory_tag'] } })).status, 200),
          () => send(round + 2, 'GET', '/inventories/tags', { token: again }),
        );
        assert.is(afterNarrowing.status, 403, `round ${round}: the removed permission is seen by another node`);
        assert.is((await send(round + 1, 'PUT', `/security/roles/${role.body.data.id}`, { body: { permissions: ['view_any_inventory_tag', 'view_inventory_tag'] } })).status, 200);
      }
    } finally {
      await load.stop();
    }
  });

  test('the change feed through any node: 60 tags created and renamed at once across the nodes, each change read once, in order per tag', async () => {
    const feedPage = (n: number, after: string) => send(n, 'GET', `/changes?after=${after}&resources=inventories/tags&limit=1000`);
    let start = '0';
    for (let more = true; more; ) {
      const page = await feedPage(0, start);
      assert.is(page.status, 200, JSON.stringify(page.body));
      start = page.body.next_cursor;
      more = page.body.has_more;
    }
    // A consumer follows the feed through every node in turn while the writes run.
    const read: any[] = [];
    let writing = true;
    const consumer = (async () => {
      let cursor = start;
      for (let round = 0; ; round++) {
        const last = !writing;
        for (let more = true; more; ) {
          const page = await feedPage(round, cursor);
          assert.is(page.status, 200, JSON.stringify(page.body));
          read.push(...page.body.data);
          cursor = page.body.next_cursor;
          more = page.body.has_more;
        }
        if (last) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    consumer.catch(() => {});
    const written = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const created = await send(i, 'POST', '/inventories/tags', { body: { name: `Feed cluster ${i}` } });
        if (created.status !== 201) return { created, renamed: undefined };
        const renamed = await send(i + 1, 'PUT', `/inventories/tags/${created.body.data.id}`, { body: { name: `Feed cluster ${i} renamed` } });
        return { created, renamed };
      }),
    );
    writing = false;
    await consumer;
    assert.equal(statusCounts(written.flatMap(({ created, renamed }) => [created, renamed ?? { status: 0 }])), { 200: 60, 201: 60 });
    const cursors = read.map((change) => change.cursor);
    assert.is(new Set(cursors).size, cursors.length, 'no change read twice');
    for (const { created } of written) {
      const mine = read.filter((change) => change.record_id === created.body.data.id);
      assert.equal(
        mine.map((change) => change.kind),
        ['created', 'updated'],
        `tag ${created.body.data.id}`,
      );
      assert.match(mine[1].record.name, / renamed$/, 'the last change shows the stored name');
    }
  });

  test('hot rows: 60 logouts and 20 role changes at once across the nodes, no 5xx', async () => {
    const logins = await Promise.all(Array.from({ length: 60 }, (_, i) => loginTo(via(i).baseUrl)));
    const role = await send(0, 'POST', '/security/roles', { body: { name: 'Hot role', permissions: ['view_any_inventory_tag'] } });
    assert.is(role.status, 201, JSON.stringify(role.body));
    const permissions = ['view_any_inventory_tag', 'view_inventory_tag', 'create_inventory_tag', 'update_inventory_tag'];
    const answers = await Promise.all([
      ...logins.map((token, i) => send(i, 'POST', '/logout', { token })),
      ...Array.from({ length: 20 }, (_, i) =>
        send(i, 'PUT', `/security/roles/${role.body.data.id}`, { body: { permissions: permissions.slice(0, 1 + (i % permissions.length)) } }),
      ),
    ]);
    assert.equal(statusCounts(answers), { 200: 80 }, JSON.stringify(answers.filter((a) => a.status !== 200).map((a) => a.body)));
    for (const [i, token] of logins.entries()) assert.is((await send(i + 1, 'GET', '/inventories/tags', { token })).status, 401, 'every logout holds');
  });

  test('a node cut off from the cluster: its process answers 503 quickly, the others keep serving, and it recovers on rejoin', async () => {
    const load = writeLoad(60_000, [0, 1]);
    try {
      await isolateNode(3, true);
      await waitFor(async () => (await call(via(2).baseUrl, 'GET', '/health')).status === 503, 15_000, 'the cut-off node reports unhealthy');
      // A hang would end at the client's timeout with status 0.
      const refused = await send(2, 'GET', '/inventories/tags', { timeoutMs: 30_000 });
      assert.is(refused.status, 503, JSON.stringify(refused.body));
      assert.ok(refused.headers['retry-after'], 'with Retry-After');
      const write = await send(2, 'POST', '/inventories/tags', { body: { name: 'Written to a cut-off node' } });
      assert.is(write.status, 503, JSON.stringify(write.body));
      await isolateNode(3, false);
      await waitFor(async () => (await call(via(2).baseUrl, 'GET', '/health')).status === 200, 30_000, 'the node rejoins and its process recovers');
      assert.is((await send(2, 'GET', '/inventories/tags')).status, 200);
    } finally {
      await isolateNode(3, false).catch(() => {});
      const answers = await load.stop();
      assert.ok(answers.length > 0, 'the load ran');
      assert.equal(
        answers.filter((answer) => answer.status >= 500 || answer.status === 0).map((answer) => `${answer.status} ${JSON.stringify(answer.body)}`),
        [],
        JSON.stringify(statusCounts(answers)),
      );
    }
    assert.is((await database.knexes[0]!('inventories_tags').where('name', 'Written to a cut-off node').count({ n: '*' }).first())!.n, 0, 'nothing half-written');
  });

  test('a node stopped under load and restarted: the other nodes keep serving, nothing half-written', async () => {
    const load = writeLoad(120_000, [0, 1]);
    let duringStop: Awaited<ReturnType<typeof send>>[] = [];
    try {
      await stopNode(3);
      // A hang would end at the client's timeout with status 0.
      duringStop = await Promise.all([
        send(2, 'GET', '/inventories/tags', { timeoutMs: 30_000 }),
        send(2, 'POST', '/inventories/tags', { body: { name: 'During the stop' }, timeoutMs: 30_000 }),
      ]);
      for (const answer of duringStop) {
        assert.is(answer.status, 503, JSON.stringify(answer.body));
        assert.ok(answer.headers['retry-after'], 'with Retry-After');
      }
      await startNode(3);
      await waitFor(async () => (await call(via(2).baseUrl, 'GET', '/health')).status === 200, 30_000, 'the restarted node serves again');
      assert.is((await send(2, 'GET', '/inventories/tags')).status, 200);
    } finally {
      const answers = await load.stop();
      assert.ok(answers.length > 0, 'the load ran');
      assert.equal(
        answers.filter((answer) => answer.status >= 500 || answer.status === 0).map((answer) => `${answer.status} ${JSON.stringify(answer.body)}`),
        [],
        JSON.stringify(statusCounts(answers)),
      );
      const lists = await database.knexes[0]!('sales_price_lists')
        .leftJoin('sales_price_list_rules', 'sales_price_list_rules.price_list_id', 'sales_price_lists.id')
        .where('sales_price_lists.name', 'like', `${load.label}.%`)
        .groupBy('sales_price_lists.id')
        .select('sales_price_lists.id')
        .count({ n: 'sales_price_list_rules.id' });
      assert.is(lists.length, answers.filter((answer) => answer.status === 201).length, 'every price list answered 201 is stored');
      assert.equal(
        lists.filter((list) => Number(list.n) !== 2),
        [],
        'every price list of the load has its two rules',
      );
    }
    assert.is((await database.knexes[0]!('inventories_tags').where('name', 'During the stop').count({ n: '*' }).first())!.n, 0, 'nothing half-written');
  });

  /**
   * Price lists of two rules written through the given nodes (all by default) until stopped: nested
   * writes that conflict with nothing, so that what fails is the node's doing (the receipts test
   * covers a row every writer needs).
   */
  function writeLoad(maxMs: number, nodes = [0, 1, 2]) {
    // Each load names its price lists apart, so that a test counts only its own.
    const label = `Load ${++loadRuns}`;
    let stopped = false;
    const answers: Awaited<ReturnType<typeof send>>[] = [];
    const until = Date.now() + maxMs;
    const worker = async (n: number) => {
      while (!stopped && Date.now() < until) {
        const rules = [
          { compute_price: 'fixed', fixed_price: 1, product_id: ids.product },
          { compute_price: 'percentage', percent_price: 10 },
        ];
        answers.push(await send(n, 'POST', '/sales/price-lists', { body: { name: `${label}.${++loadCount}`, currency_id: 1, rules } }));
      }
    };
    const running = Promise.all(nodes.flatMap((n) => [worker(n), worker(n)]));
    // Awaited by stop(): a worker that fails before (no process left to send to) is reported by
    // the test that stops the load, instead of ending the whole run as an unhandled rejection.
    running.catch(() => {});
    return {
      label,
      async stop() {
        stopped = true;
        await running;
        return answers;
      },
    };
  }

  async function onHand(product: number): Promise<number> {
    const rows = await database.knexes[0]!('inventories_product_quantities').where('product_id', product).sum({ q: 'quantity' });
    return Number(rows[0]?.q ?? 0);
  }

  test.run();
}
