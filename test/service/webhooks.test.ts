// Webhooks as a subscriber meets them: a receiver on loopback gets every change it subscribed to at
// least once, signed by the Standard Webhooks scheme (checked with the `standardwebhooks` package),
// in order for each record; a receiver that answers 500 or not at all gets the delivery again; one
// that keeps failing gets its webhook disabled with the reason; a delivery can be replayed; a
// process killed mid-delivery loses nothing, another one sends it. The secret is shown once. Real
// service processes on one SQLite file (and on MySQL/MariaDB when TEST_MYSQL_DATABASE_URL is set).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copySqliteTemplate } from '../helpers/migrated-template.ts';
import { type ServiceDatabase, serviceDatabases } from '../helpers/service-databases.ts';
import { call, loginTo, PROCESS_SECRET, type ServiceProcess, startService } from '../helpers/service-process.ts';
import { inThisRun } from '../helpers/targets.ts';
import { builtEntry } from '../helpers/built.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const API = '/admin/api/v1';

interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
}

/** A webhook receiver on loopback: records what it gets and answers as `answer` says. */
function receiver() {
  const received: Received[] = [];
  let answer: (request: Received, response: ServerResponse) => void = (_request, response) => response.writeHead(204).end();
  const server: Server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const got = {
        id: String(request.headers['webhook-id']),
        timestamp: String(request.headers['webhook-timestamp']),
        signature: String(request.headers['webhook-signature']),
        body,
      };
      received.push(got);
      answer(got, response);
    });
  });
  return {
    received,
    answerWith(next: typeof answer) {
      answer = next;
    },
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.unreachable(`timed out waiting for ${what}`);
}

const targets = serviceDatabases('webhooks', { migrated: true });

// Short delays and timeout, so that retries and a dead process's lease (three timeouts) pass quickly.
// Loopback opened for the receiver, and nothing more.
const WEBHOOK_ENV = { WEBHOOKS_ALLOW_LOOPBACK_TARGETS: 'true', WEBHOOKS_RETRY_DELAYS: '1s,1s,1s', WEBHOOKS_TIMEOUT: '2s' };

for (const target of targets) {
  const test = suite(`webhooks [${target.name}]`);
  let database: Awaited<ReturnType<ServiceDatabase['prepare']>>;
  let processes: ServiceProcess[] = [];
  let token = '';
  const hooks = receiver();
  let hookUrl = '';
  const send = (method: string, path: string, body?: unknown, via = 0) => call(processes[via]!.baseUrl, method, `${API}${path}`, { token, body });

  test.before(async () => {
    database = await target.prepare();
    hookUrl = await hooks.listen();
    // Process 0 delivers; process 1 only serves the API (WEBHOOKS_WORKER=false), as when the
    // deliveries run in a process of their own.
    processes = await Promise.all([
      startService({ DATABASE_URL: database.url, ...WEBHOOK_ENV }),
      startService({ DATABASE_URL: database.url, ...WEBHOOK_ENV, WEBHOOKS_WORKER: 'false' }),
    ]);
    token = await loginTo(processes[0]!.baseUrl);
  });

  test.after(async () => {
    for (const running of processes) await running.stop();
    await hooks.close();
    await database.drop();
  });

  /** The deliveries of one webhook that the receiver has got, parsed, verified with `secret`. */
  const deliveriesOf = (secret: string) =>
    hooks.received
      .filter((got) => {
        try {
          new Webhook(secret).verify(got.body, { 'webhook-id': got.id, 'webhook-timestamp': got.timestamp, 'webhook-signature': got.signature });
          return true;
        } catch {
          return false;
        }
      })
      .map((got) => ({ id: got.id, ...JSON.parse(got.body) }));

  test('a webhook gets every change it asked for, signed, in order per record; its secret is shown once', async () => {
    const created = await send('POST', '/webhooks', { url: hookUrl, resources: ['inventories/tags'], description: 'tags' });
    assert.is(created.status, 201, JSON.stringify(created.body));
    const { id, secret } = created.body.data;
    assert.match(secret, /^whsec_[A-Za-z0-9+/=]{40,}$/);
    const shown = await send('GET', `/webhooks/${id}`);
    assert.is(shown.status, 200);
    assert.not.ok('secret' in shown.body.data, 'a show does not show the secret');
    const listed = await send('GET', '/webhooks');
    assert.ok(
      listed.body.data.every((webhook: Record<string, unknown>) => !('secret' in webhook)),
      'nor does a list',
    );
    const feed = await send('GET', '/changes?resources=webhooks/subscriptions');
    assert.not.ok(JSON.stringify(feed.body).includes(secret), 'nor the change feed');

    const tags: number[] = [];
    for (let i = 0; i < 5; i++) tags.push((await send('POST', '/inventories/tags', { name: `Hooked ${i}` }, i % 2)).body.data.id);
    for (const tag of tags.slice(0, 2)) assert.is((await send('PUT', `/inventories/tags/${tag}`, { name: `Hooked ${tag} renamed` }, 1)).status, 200);
    await send('POST', '/sales/tags', { name: 'Not asked for' });

    await waitFor(() => deliveriesOf(secret).length >= 8, 'a ping and seven changes');
    const all = deliveriesOf(secret);
    assert.equal(all[0].type, 'webhook.ping', 'a ping comes first');
    assert.equal(all[0].data, { webhook_id: id });
    const got = all.filter((delivery) => delivery.type !== 'webhook.ping');
    assert.is(got.length, hooks.received.filter((r) => r.body.includes('"inventories/tags"')).length, 'every delivery verifies with the secret');
    assert.equal(new Set(got.map((delivery) => delivery.data.resource)), new Set(['inventories/tags']), 'only what it asked for');
    for (const tag of tags) {
      const mine = got.filter((delivery) => delivery.data.record_id === tag);
      const kinds = mine.map((delivery) => delivery.data.kind);
      assert.equal(kinds, tags.slice(0, 2).includes(tag) ? ['created', 'updated'] : ['created'], `tag ${tag} in order`);
      assert.is(mine[0].type, 'inventories/tags.created');
    }
    assert.ok(
      got.every((delivery) => delivery.id === `msg_${delivery.data.cursor}`),
      'webhook-id names the change',
    );
    await send('DELETE', `/webhooks/${id}`);
  });

  test('a receiver that answers 500 or not at all gets the delivery again; every attempt is listed', async () => {
    const created = await send('POST', '/webhooks', { url: hookUrl, resources: ['inventories/tags'], kinds: ['created'] });
    const { id, secret } = created.body.data;
    const seen = new Map<string, number>();
    hooks.answerWith((got, response) => {
      const count = (seen.get(got.id) ?? 0) + 1;
      seen.set(got.id, count);
      if (count === 1) return response.writeHead(500).end('not now');
      if (count === 2) return; // no answer: the attempt times out
      response.writeHead(200).end();
    });
    const tag = (await send('POST', '/inventories/tags', { name: 'Hooked flaky' })).body.data.id;
    await waitFor(async () => {
      const deliveries = await send('GET', `/webhooks/${id}/deliveries?include=attempts`);
      return deliveries.body.data.some((delivery: any) => delivery.record_id === tag && delivery.status === 'succeeded');
    }, 'the delivery succeeds on its third attempt');
    const delivery = (await send('GET', `/webhooks/${id}/deliveries?include=attempts`)).body.data.find((entry: any) => entry.record_id === tag);
    assert.is(delivery.attempts_count, 3);
    assert.equal(
      delivery.attempts.map((attempt: any) => attempt.response_code),
      [500, null, 200],
    );
    assert.match(delivery.attempts[1].error, /no answer within 2000 ms/);
    const sent = deliveriesOf(secret).filter((got) => got.data.record_id === tag);
    assert.is(sent.length, 3, 'the same delivery three times');
    assert.is(new Set(sent.map((got) => got.id)).size, 1, 'with one webhook-id');
    hooks.answerWith((_got, response) => response.writeHead(204).end());

    // Replayed on request: sent once more, with the same webhook-id.
    const replayed = await send('POST', `/webhooks/${id}/deliveries/${delivery.id}/replay`);
    assert.is(replayed.status, 200, JSON.stringify(replayed.body));
    await waitFor(() => deliveriesOf(secret).filter((got) => got.data.record_id === tag).length === 4, 'the replay');
    await send('DELETE', `/webhooks/${id}`);
  });

  test('a receiver that keeps failing gets its webhook disabled, with the reason; switched on again, it resumes', async () => {
    const created = await send('POST', '/webhooks', { url: hookUrl, resources: ['sales/tags'] });
    const { id, secret } = created.body.data;
    hooks.answerWith((got, response) => response.writeHead(got.body.includes('"sales/tags"') ? 503 : 204).end());
    await send('POST', '/sales/tags', { name: 'Never taken' });
    await waitFor(async () => (await send('GET', `/webhooks/${id}`)).body.data.is_active === false, 'the webhook disabled', 30_000);
    const webhook = (await send('GET', `/webhooks/${id}`)).body.data;
    assert.match(webhook.disabled_reason, /failed 4 times \(last: HTTP 503\)/);
    assert.ok(webhook.disabled_at);
    const delivery = (await send('GET', `/webhooks/${id}/deliveries`)).body.data.find((entry: any) => entry.resource === 'sales/tags');
    assert.is(delivery.status, 'failed');

    hooks.answerWith((_got, response) => response.writeHead(204).end());
    assert.is((await send('POST', `/webhooks/${id}/deliveries/${delivery.id}/replay`)).status, 200);
    await send('POST', '/sales/tags', { name: 'Taken after' });
    assert.is((await send('PUT', `/webhooks/${id}`, { is_active: true })).body.data.disabled_reason, null);
    await waitFor(() => deliveriesOf(secret).filter((got) => got.data.record?.name === 'Taken after').length === 1, 'the next change after resuming');
    await send('DELETE', `/webhooks/${id}`);
  });

  test('a process killed in the middle of a delivery loses nothing: `erp webhooks:work` sends it once the lease runs out', async () => {
    const created = await send('POST', '/webhooks', { url: hookUrl, resources: ['inventories/tags'], kinds: ['created'] });
    const { id, secret } = created.body.data;
    let first = true;
    hooks.answerWith((got, response) => {
      if (got.body.includes('Hooked killed') && first) {
        first = false;
        processes[0]!.child.kill('SIGKILL'); // the delivering process dies before any answer
        return;
      }
      response.writeHead(204).end();
    });
    const tag = (await send('POST', '/inventories/tags', { name: 'Hooked killed' }, 1)).body.data.id;
    await waitFor(() => !first, 'the first attempt');
    await processes[0]!.exited;
    const worker = spawn(process.execPath, [await builtEntry('src/cli/index.ts'), 'webhooks:work'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: database.url, JWT_SECRET: PROCESS_SECRET, ...WEBHOOK_ENV },
      stdio: 'ignore',
    });
    try {
      await waitFor(() => deliveriesOf(secret).filter((got) => got.data.record_id === tag).length >= 2, 'the delivery sent again', 40_000);
      await waitFor(
        async () => (await send('GET', `/webhooks/${id}/deliveries`, undefined, 1)).body.data.find((entry: any) => entry.record_id === tag).status === 'succeeded',
        'the delivery recorded as succeeded',
      );
    } finally {
      worker.kill('SIGTERM');
      await new Promise((resolve) => worker.once('exit', resolve));
    }
    processes[0] = await startService({ DATABASE_URL: database.url, ...WEBHOOK_ENV });
    await send('DELETE', `/webhooks/${id}`, undefined, 1);
  });

  test('the secret rotates: shown once more, and the next deliveries are signed with the new one only', async () => {
    const created = await send('POST', '/webhooks', { url: hookUrl, resources: ['inventories/tags'], kinds: ['created'] });
    const { id, secret } = created.body.data;
    const rotated = await send('POST', `/webhooks/${id}/rotate-secret`);
    assert.is(rotated.status, 200, JSON.stringify(rotated.body));
    const renewed = rotated.body.data.secret;
    assert.match(renewed, /^whsec_/);
    assert.is.not(renewed, secret);
    await send('POST', '/inventories/tags', { name: 'Hooked rotated' });
    await waitFor(() => deliveriesOf(renewed).some((got) => got.data.record?.name === 'Hooked rotated'), 'a delivery signed with the new secret');
    assert.not.ok(
      deliveriesOf(secret).some((got) => got.data.record?.name === 'Hooked rotated'),
      'the old secret signs nothing more',
    );
    await send('DELETE', `/webhooks/${id}`);
  });

  test.run();
}

const guarded = suite('webhook targets');
let service: ServiceProcess;
/** A service opened for development: private networks and loopback. */
let opened: ServiceProcess;
let token = '';
let openedToken = '';
let dir = '';
guarded.before(async () => {
  // Copies of the migrated template: what is checked is the service's settings, not a first start.
  dir = mkdtempSync(join(tmpdir(), 'erp-webhook-targets-'));
  await copySqliteTemplate(join(dir, 'erp.sqlite'));
  await copySqliteTemplate(join(dir, 'opened.sqlite'));
  [service, opened] = await Promise.all([
    startService({ DATABASE_URL: `sqlite:${join(dir, 'erp.sqlite')}`, WEBHOOKS_WORKER: 'false' }),
    startService({ DATABASE_URL: `sqlite:${join(dir, 'opened.sqlite')}`, WEBHOOKS_WORKER: 'false', WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' }),
  ]);
  [token, openedToken] = await Promise.all([loginTo(service.baseUrl), loginTo(opened.baseUrl)]);
});
guarded.after(async () => {
  await service.stop();
  await opened.stop();
  rmSync(dir, { recursive: true, force: true });
});

guarded('private, loopback, link-local and non-http targets are refused (422), unless allowed', async () => {
  for (const url of [
    'http://127.0.0.1:8080/hooks',
    'http://localhost/hooks',
    'http://10.1.2.3/hooks',
    'http://192.168.1.10/hooks',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hooks',
    'http://[::ffff:127.0.0.1]/hooks',
    'ftp://example.com/hooks',
    'https://user:pass@example.com/hooks',
  ]) {
    const answer = await call(service.baseUrl, 'POST', `${API}/webhooks`, { token, body: { url } });
    assert.is(answer.status, 422, `${url}: ${JSON.stringify(answer.body)}`);
    assert.ok(answer.body.errors.url, url);
  }
});

guarded('opened for private targets, link-local and cloud metadata addresses stay refused (422), however written', async () => {
  for (const url of ['http://10.1.2.3/hooks', 'http://127.0.0.1:8080/hooks']) {
    const answer = await call(opened.baseUrl, 'POST', `${API}/webhooks`, { token: openedToken, body: { url, resources: ['sales/orders'] } });
    assert.is(answer.status, 201, `${url}: ${JSON.stringify(answer.body)}`);
  }
  for (const url of [
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/latest/meta-data/',
    'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
    'http://[fe80::1]/hooks',
    'http://[fd00:ec2::254]/latest/meta-data/',
  ]) {
    const answer = await call(opened.baseUrl, 'POST', `${API}/webhooks`, { token: openedToken, body: { url, resources: ['sales/orders'] } });
    assert.is(answer.status, 422, `${url}: ${JSON.stringify(answer.body)}`);
    assert.match(answer.body.errors.url[0], /link-local, cloud metadata or reserved/, url);
  }
});

guarded('a webhook follows resources of the feed; a public address is accepted', async () => {
  const unknown = await call(service.baseUrl, 'POST', `${API}/webhooks`, { token, body: { url: 'https://93.184.215.14/hooks', resources: ['sales/nothing'] } });
  assert.is(unknown.status, 422);
  assert.match(unknown.body.errors.resources[0], /Unknown resources: sales\/nothing/);
  assert.is(unknown.body.errors.url, undefined, 'a public address is fine');
  const created = await call(service.baseUrl, 'POST', `${API}/webhooks`, { token, body: { url: 'https://93.184.215.14/hooks', resources: ['sales/orders'] } });
  assert.is(created.status, 201, JSON.stringify(created.body));
});

// The same in both halves of a run on both databases (test/run.ts): run in the SQLite one only.
if (inThisRun('sqlite')) guarded.run();
