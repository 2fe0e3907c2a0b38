// Fair turns (src/fair-turns.ts): while keep-alive clients keep a synchronous handler busy (as
// SQLite's requests are), the event loop still comes back to its timers and new connections
// every turn budget, instead of after serving every ready request. Counted in requests served,
// not timed. The clients share the process with the server, so about half of them are ready at
// any turn; each test fails with the gate removed.
import { request as httpRequest, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../src/config.ts';
import { registerFairTurns, type FairTurns } from '../../src/fair-turns.ts';
import { OVERLOADED, registerLoadShedding } from '../../src/pressure.ts';

const test = suite('fair turns');
const BUSY_CLIENTS = 20;
const SPIN_MS = 1;
/**
 * The turn budget these tests give (the service's own is TURN_BUDGET_MS): with 1 ms requests a
 * guarded turn serves two or three, well apart from what the unguarded loop serves.
 */
const BUDGET_MS = 2;
/** Requests in a line that must outlast maxWaitMs: at 3 ms each, turns of 2 ms start one at a time. */
const LONG_SPIN_MS = 3;

interface Bench {
  app: FastifyInstance;
  turns: FairTurns;
  port: number;
  served: () => number;
}

async function start(maxWaitMs = 0, { shedding = false, spinMs = SPIN_MS } = {}): Promise<Bench> {
  const app = Fastify();
  const turns = registerFairTurns(app, { budgetMs: BUDGET_MS, maxWaitMs });
  if (shedding) await registerLoadShedding(app, loadConfig({ MAX_EVENT_LOOP_DELAY_MS: String(maxWaitMs) }), turns);
  let served = 0;
  // A synchronous handler, as a request on SQLite is: better-sqlite3 answers without yielding.
  app.get('/spin', (_request, reply) => {
    const until = performance.now() + spinMs;
    while (performance.now() < until);
    served++;
    reply.send({ ok: true });
  });
  app.get('/quick', (_request, reply) => reply.send({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, turns, port: (app.server.address() as AddressInfo).port, served: () => served };
}

function get(port: number, path: string, agent: Agent): Promise<number> {
  return answer(port, path, agent).then(({ status }) => status);
}

function answer(port: number, path: string, agent: Agent): Promise<{ status: number; retryAfter: unknown; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Clients that each send their next request as soon as the last is answered, on one connection each. */
function busyClients(port: number) {
  let running = true;
  const agents = Array.from({ length: BUSY_CLIENTS }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
  const loops = agents.map(async (agent) => {
    while (running) await get(port, '/spin', agent);
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      for (const agent of agents) agent.destroy();
    },
  };
}

/** Keep-alive connections, each opened by one answered request: later requests on them arrive together. */
async function connected(port: number, count: number): Promise<Agent[]> {
  const agents = Array.from({ length: count }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
  for (const agent of agents) await get(port, '/quick', agent);
  return agents;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

test('under saturation a timer waits for a turn budget of requests, not for every busy client', async () => {
  const bench = await start();
  const clients = busyClients(bench.port);
  try {
    await settle();
    const waits: number[] = [];
    for (let i = 0; i < 10; i++) {
      const before = bench.served();
      await new Promise((resolve) => setTimeout(resolve, 0));
      waits.push(bench.served() - before);
    }
    waits.sort((a, b) => a - b);
    // A turn starts requests for BUDGET_MS (2 ms: two or three 1 ms requests), then polls and
    // runs timers. The unguarded loop serves every busy client whose next request is in: 8 to 10 here.
    assert.ok(waits[5]! <= 6, `a timer waited for ${waits.join(', ')} requests`);
  } finally {
    await clients.stop();
    await bench.app.close();
  }
});

test('a burst of new connections is answered within a few turns each, while busy clients keep their pace', async () => {
  const bench = await start();
  const clients = busyClients(bench.port);
  const newcomers = Array.from({ length: 10 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
  try {
    await settle();
    const before = bench.served();
    const statuses = await Promise.all(newcomers.map((agent) => get(bench.port, '/quick', agent)));
    const servedMeanwhile = bench.served() - before;
    assert.equal(statuses, Array(10).fill(200));
    // One connection is accepted per turn: ten turns of two or three requests (about 40). The
    // unguarded loop serves every busy client that is ready on each of those ten turns: about 140.
    assert.ok(servedMeanwhile <= 100, `${servedMeanwhile} busy requests were served before the last newcomer`);
  } finally {
    for (const agent of newcomers) agent.destroy();
    await clients.stop();
    await bench.app.close();
  }
});

test('a request waits only while others wait or the turn is spent; the line empties', async () => {
  const bench = await start();
  try {
    assert.is(await get(bench.port, '/spin', new Agent()), 200);
    assert.is(bench.turns.waiting(), 0);
    assert.is(bench.turns.oldestWaitMs(), 0);
    // Sixty at once on open connections (new ones are accepted one per turn): the first turn
    // starts a couple, the rest wait in line and all are answered.
    const agents = await connected(bench.port, 60);
    const all = Promise.all(agents.map((agent) => get(bench.port, '/spin', agent)));
    let sawWaiting = 0;
    const watch = setInterval(() => {
      sawWaiting = Math.max(sawWaiting, bench.turns.waiting());
    }, 1);
    assert.equal(await all, Array(60).fill(200));
    clearInterval(watch);
    assert.ok(sawWaiting > 10, `at most ${sawWaiting} waited at once`);
    assert.is(bench.turns.waiting(), 0);
    for (const agent of agents) agent.destroy();
  } finally {
    await bench.app.close();
  }
});

test('past maxWaitMs a new request skips the line (for load shedding to answer it at once)', async () => {
  const bench = await start(20, { spinMs: LONG_SPIN_MS });
  try {
    const agents = await connected(bench.port, 80);
    const quick = (await connected(bench.port, 1))[0]!;
    let spun = 0;
    const spinning = Promise.all(agents.map((agent) => get(bench.port, '/spin', agent).then(() => spun++)));
    // Wait until the oldest in line has waited past 20 ms (80 requests of 3 ms), then ask for a quick answer.
    while (bench.turns.oldestWaitMs() <= 20 && spun < 80) await new Promise((resolve) => setImmediate(resolve));
    assert.ok(spun < 80, 'the line never waited 20 ms');
    assert.is(await get(bench.port, '/quick', quick), 200);
    assert.ok(spun < 80, 'answered while the line still waits, not after it');
    await spinning;
    for (const agent of [...agents, quick]) agent.destroy();
  } finally {
    await bench.app.close();
  }
});

test('with load shedding, a request arriving past MAX_EVENT_LOOP_DELAY_MS of wait gets 503 at once; the line is answered', async () => {
  const bench = await start(20, { shedding: true, spinMs: LONG_SPIN_MS });
  try {
    await new Promise((resolve) => setTimeout(resolve, 2100)); // load shedding's grace period after start
    const agents = await connected(bench.port, 80);
    const late = (await connected(bench.port, 1))[0]!;
    let spun = 0;
    const spinning = Promise.all(
      agents.map((agent) =>
        get(bench.port, '/spin', agent).then((status) => {
          spun++;
          return status;
        }),
      ),
    );
    while (bench.turns.oldestWaitMs() <= 20 && spun < 80) await new Promise((resolve) => setImmediate(resolve));
    assert.ok(spun < 80, 'the line never waited 20 ms');
    const shed = await answer(bench.port, '/quick', late);
    assert.equal([shed.status, shed.retryAfter, JSON.parse(shed.body)], [503, '5', { message: OVERLOADED }]);
    assert.ok(spun < 80, 'answered while the line still waits, not after it');
    assert.equal(await spinning, Array(80).fill(200), 'requests already in line are served');
    assert.is(await get(bench.port, '/quick', late), 200, 'once the line is gone, requests are answered again');
    for (const agent of [...agents, late]) agent.destroy();
  } finally {
    await bench.app.close();
  }
});

test.run();
