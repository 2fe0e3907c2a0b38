// REDIS_URL: two processes on one database share their rate-limit counters, so a client gets one
// limit whichever answers; with Redis gone the API keeps answering (no limit, a warning in the
// log) and limits again once it is back. Needs Redis on 127.0.0.1:6379 (TEST_REDIS_URL).
import net from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, startApp, type TestApp } from '../helpers/app.ts';
import type { Target } from '../helpers/targets.ts';

const REDIS = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
// In-process apps on SQLite: the shared store is what is tested, not the database.
const sqlite: Target = { name: 'sqlite', databaseUrl: 'sqlite::memory:' };
const test = suite('rate limits in Redis');
const opened: TestApp[] = [];

async function open(env: Record<string, string>, knex?: TestApp['knex']): Promise<TestApp> {
  const app = await startApp(sqlite, { env: { RATE_LIMIT_MAX: '3', ...env }, minimalSeed: true, knex });
  opened.push(app);
  return app;
}

// Counters of an earlier run (within its minute) would count against this one: start from none.
test.before(async () => {
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS.toString());
  const keys = await redis.keys('erp-rate-limit:*');
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

test.after(async () => {
  for (const app of opened.reverse()) await app.close();
});

test('two processes share one limit per token', async () => {
  const first = await open({ REDIS_URL: REDIS.toString() });
  const second = await open({ REDIS_URL: REDIS.toString() }, first.knex);
  const token = await first.login();
  const statuses = [];
  for (const app of [first, second, first, second]) statuses.push((await app.client.get(`${API}/support/banks`, { token })).status);
  assert.equal(statuses, [200, 200, 200, 429]);
});

test('with Redis unreachable requests go through (no 500), and limits come back with it', async () => {
  const sockets = new Set<net.Socket>();
  let server: net.Server;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(REDIS.port || 6379), REDIS.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  await listen();
  const app = await open({ REDIS_URL: `redis://127.0.0.1:${port}` });
  const token = await app.login();
  const banks = () => app.client.get(`${API}/support/banks`, { token });
  await new Promise((resolve) => setTimeout(resolve, 200));

  const closed = new Promise((resolve) => server!.close(resolve));
  for (const socket of sockets) socket.destroy();
  await closed;
  const during = [];
  for (let i = 0; i < 6; i++) during.push((await banks()).status);
  assert.equal(during, [200, 200, 200, 200, 200, 200], 'unlimited, never a 500');
  assert.ok(
    app.logs.some((line) => line.includes('Redis unavailable')),
    'a warning is logged',
  );

  await listen();
  let limited = false;
  for (let i = 0; i < 40 && !limited; i++) {
    limited = (await banks()).status === 429;
    if (!limited) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.ok(limited, 'limits apply again');
  await app.close();
  opened.splice(opened.indexOf(app), 1);
  const stopped = new Promise((resolve) => server!.close(resolve));
  for (const socket of sockets) socket.destroy();
  await stopped;
});

test.run();
