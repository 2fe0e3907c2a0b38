// What operators see and rely on: /metrics in Prometheus' format, load shedding that answers 503
// instead of queueing and recovers, and a request id on every answer.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp, startApp, type TestApp } from '../helpers/app.ts';
import type { Target } from '../helpers/targets.ts';

// In-process apps on SQLite: what is measured here does not depend on the database.
const sqlite: Target = { name: 'sqlite', databaseUrl: 'sqlite::memory:' };
const test = suite('operability');
const opened: TestApp[] = [];
const open = async (env: Record<string, string>) => {
  const app = await startApp(sqlite, { env, minimalSeed: true });
  opened.push(app);
  return app;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test.after(async () => {
  for (const app of opened) await app.close();
});

test('/metrics: requests and latency per route template, rate-limit rejections, the pool, event-loop lag, memory', async () => {
  const app = await open({ RATE_LIMIT_MAX: '2' });
  const token = await app.login();
  for (let i = 0; i < 3; i++) await app.client.get(`${API}/support/banks/${i + 1}`, { token });
  const metrics = await app.client.get('/metrics');
  assert.is(metrics.status, 200);
  assert.match(String(metrics.headers['content-type']), /^text\/plain/);
  const text = metrics.text;
  // Three ids, one route template: two answers (no such bank) and the third refused by the limit.
  const labels = (status: number) => `method="GET",route="/admin/api/v1/support/banks/:id",status_code="${status}"`;
  const value = (series: string) => Number(new RegExp(`^${series.replace(/[{}()[\].+*?^$|\\]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
  assert.is(value(`http_requests_total{${labels(404)}}`), 2, 'one series per route template');
  assert.is(value(`http_requests_total{${labels(429)}}`), 1);
  assert.is(value(`http_request_duration_seconds_count{${labels(404)}}`), 2);
  assert.is(value(`http_request_duration_seconds_bucket{le="+Inf",${labels(404)}}`), 2);
  assert.ok(value(`http_request_duration_seconds_bucket{le="0.1",${labels(404)}}`) <= 2);
  assert.ok(value(`http_request_duration_seconds_sum{${labels(404)}}`) > 0);
  assert.is(value('http_rate_limit_rejections_total'), 1);
  for (const series of ['db_pool_connections_in_use', 'db_pool_connections_free', 'db_pool_acquires_pending', 'nodejs_eventloop_lag_seconds', 'process_resident_memory_bytes'])
    assert.match(text, new RegExp(`^${series} `, 'm'), series);
});

test('METRICS_TOKEN guards /metrics', async () => {
  const app = await open({ METRICS_TOKEN: 'metrics-secret' });
  assert.is((await app.client.get('/metrics')).status, 401);
  assert.is((await app.client.get('/metrics', { headers: { authorization: 'Bearer wrong' } })).status, 401);
  assert.is((await app.client.get('/metrics', { headers: { authorization: 'Bearer metrics-secret' } })).status, 200);
});

test('past MAX_EVENT_LOOP_DELAY_MS requests get 503 with Retry-After, /health says so, and it recovers', async () => {
  const app = await open({ MAX_EVENT_LOOP_DELAY_MS: '50' });
  const token = await app.login();
  await sleep(2200); // the grace period after start
  assert.is((await app.client.get(`${API}/support/banks`, { token })).status, 200);
  // A process stuck on work: its event loop lags, 150 ms at a time, for about a second.
  const hog = busyLoop(150, 1200);
  const answers: Array<{ status: number; body: unknown; retryAfter: unknown }> = [];
  let health: { status: number; body: any } | undefined;
  while (hog.running()) {
    const response = await app.client.get(`${API}/support/banks`, { token });
    answers.push({ status: response.status, body: response.body, retryAfter: response.headers['retry-after'] });
    const checked = await app.client.get('/health');
    if (checked.status === 503) health = checked;
  }
  await hog.done;
  const shed = answers.find((answer) => answer.status === 503);
  assert.ok(shed, `some requests were shed: ${answers.map((a) => a.status).join(',')}`);
  assert.equal(shed!.body, { message: 'The service is overloaded right now. Retry in a moment.' });
  assert.is(shed!.retryAfter, '5');
  assert.ok(
    answers.every((answer) => answer.status === 200 || answer.status === 503),
    'nothing but 200 and 503',
  );
  assert.equal([health?.body.status, health?.body.pressure.overloaded], ['overloaded', true], '/health says so');
  let recovered = 0;
  for (let i = 0; i < 20 && recovered !== 200; i++) {
    await sleep(100);
    recovered = (await app.client.get(`${API}/support/banks`, { token })).status;
  }
  assert.is(recovered, 200, 'answers again once the loop is free');
});

test('a busy loop below MAX_EVENT_LOOP_DELAY_MS sheds nothing', async () => {
  const app = await open({ MAX_EVENT_LOOP_DELAY_MS: '1000' });
  const token = await app.login();
  await sleep(2200); // the grace period after start
  // Turns of 150 ms, as a process saturated with heavy requests has: slow, not overloaded.
  const hog = busyLoop(150, 1200);
  const statuses: number[] = [];
  while (hog.running()) statuses.push((await app.client.get(`${API}/support/banks`, { token })).status);
  await hog.done;
  assert.ok(
    statuses.every((status) => status === 200),
    statuses.join(','),
  );
});

/** Keeps this process's event loop busy in turns of `turnMs` (letting I/O in between) for about `totalMs`. */
function busyLoop(turnMs: number, totalMs: number): { running: () => boolean; done: Promise<void> } {
  let running = true;
  const done = (async () => {
    const stop = Date.now() + totalMs;
    while (Date.now() < stop) {
      const until = Date.now() + turnMs;
      while (Date.now() < until);
      await new Promise((resolve) => setImmediate(resolve));
    }
    running = false;
  })();
  return { running: () => running, done };
}

test('every answer carries X-Request-Id: the client\u2019s own when well-formed, else a new one', async () => {
  const { client } = await sharedApp(sqlite);
  const generated = await client.get('/health');
  assert.match(String(generated.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  const own = await client.get(`${API}/support/banks`, { headers: { 'x-request-id': 'shop-sync-42' } });
  assert.is(own.headers['x-request-id'], 'shop-sync-42', 'echoed (also on a 401)');
  const odd = await client.get('/health', { headers: { 'x-request-id': 'has spaces and "quotes"' } });
  assert.match(String(odd.headers['x-request-id']), /^[0-9a-f-]{36}$/, 'a malformed one is replaced');
});

test.run();
