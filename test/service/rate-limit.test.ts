// Rate limiting over real HTTP: per token, per IP before login, per e-mail on login; /health exempt.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ADMIN, API, startApp, type TestApp } from '../helpers/app.ts';
import type { Response } from '../helpers/http.ts';
import { databaseTargets } from '../helpers/targets.ts';

const PROTECTED = `${API}/support/users`;
const WINDOW_SECONDS = 60; // RATE_LIMIT_WINDOW's default

function header(response: Response, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function assertSeconds(response: Response, name: string) {
  const value = header(response, name);
  assert.ok(value !== undefined && /^[0-9]+$/.test(value), `${name} is ${value}`);
  assert.ok(Number(value) >= 1 && Number(value) <= WINDOW_SECONDS, `${name} is ${value}`);
}

function assertTooMany(response: Response, what: string) {
  assert.is(response.status, 429, `${what}: ${response.status} ${response.text}`);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  assert.equal(Object.keys(response.body), ['message']);
  assert.type(response.body.message, 'string');
  assert.ok(response.body.message.length > 0);
  assertSeconds(response, 'retry-after');
}

for (const target of databaseTargets()) {
  const test = suite(`rate-limit [${target.name}]`);
  // Behind a trusted proxy, so each test is its own client (X-Forwarded-For) with its own buckets.
  let proxied: TestApp;
  // Not behind a proxy: X-Forwarded-For must not let a client pick its bucket.
  let direct: TestApp;
  // A looser per-address limit, to see the per-e-mail login limit on its own.
  let logins: TestApp;
  let nextIp = 1;
  /** Headers of a client with an address of its own. */
  const newClient = () => ({ 'x-forwarded-for': `10.0.0.${nextIp++}` });

  test.before(async () => {
    proxied = await startApp(target, { env: { RATE_LIMIT_MAX: '3', LOGIN_RATE_LIMIT_MAX: '2', TRUST_PROXY: 'true' }, minimalSeed: true });
    direct = await startApp(target, { env: { RATE_LIMIT_MAX: '3' }, minimalSeed: true });
    logins = await startApp(target, { env: { RATE_LIMIT_MAX: '20', LOGIN_RATE_LIMIT_MAX: '2', TRUST_PROXY: 'true' }, minimalSeed: true });
  });

  test.after(async () => {
    await proxied?.close();
    await direct?.close();
    await logins?.close();
  });

  async function loginFrom(headers: Record<string, string>): Promise<string> {
    const response = await proxied.client.post(`${API}/login`, { body: { email: ADMIN.email, password: ADMIN.password }, headers });
    assert.is(response.status, 200, response.text);
    return response.body.token;
  }

  test('normal responses tell the limit, what remains and when it resets; the 4th request with a token is 429', async () => {
    const headers = newClient();
    const token = await loginFrom(headers);
    for (const remaining of ['2', '1', '0']) {
      const response = await proxied.client.get(PROTECTED, { token, headers });
      assert.is(response.status, 200, response.text);
      assert.is(header(response, 'x-ratelimit-limit'), '3');
      assert.is(header(response, 'x-ratelimit-remaining'), remaining);
      assertSeconds(response, 'x-ratelimit-reset');
    }
    const refused = await proxied.client.get(PROTECTED, { token, headers });
    assertTooMany(refused, '4th request with the same token');
    assert.is(header(refused, 'x-ratelimit-limit'), '3');
    assert.is(header(refused, 'x-ratelimit-remaining'), '0');
    // Every route counts against the same bucket, writes included.
    assertTooMany(await proxied.client.post(`${API}/support/banks`, { token, headers, body: { name: 'Rate Limited Bank' } }), 'create after the limit');
    assert.is(await proxied.knex('banks').where('name', 'Rate Limited Bank').first('id'), undefined, 'a refused create was stored');
  });

  test('another token has its own bucket, even from the same address', async () => {
    const headers = newClient();
    const exhausted = await loginFrom(headers);
    const fresh = await loginFrom(headers);
    for (let i = 0; i < 3; i++) assert.is((await proxied.client.get(PROTECTED, { token: exhausted, headers })).status, 200);
    assertTooMany(await proxied.client.get(PROTECTED, { token: exhausted, headers }), 'exhausted token');
    const response = await proxied.client.get(PROTECTED, { token: fresh, headers });
    assert.is(response.status, 200, response.text);
    assert.is(header(response, 'x-ratelimit-remaining'), '2');
  });

  test('before login the bucket is per IP address', async () => {
    const headers = newClient();
    for (const remaining of ['2', '1', '0']) {
      const response = await proxied.client.get(PROTECTED, { headers });
      assert.is(response.status, 401);
      assert.is(header(response, 'x-ratelimit-limit'), '3', 'requests without a token are not counted');
      assert.is(header(response, 'x-ratelimit-remaining'), remaining);
    }
    assertTooMany(await proxied.client.get(PROTECTED, { headers }), '4th request without a token');
    // An invalid token is no token: it does not open a new bucket.
    assertTooMany(await proxied.client.get(PROTECTED, { headers: { ...headers, authorization: 'Bearer garbage' } }), 'garbage token from the same address');
    // Another address has its own bucket.
    const other = await proxied.client.get(PROTECTED, { headers: newClient() });
    assert.is(other.status, 401);
    assert.is(header(other, 'x-ratelimit-remaining'), '2');
    // Login attempts count against the address too: an exhausted address cannot try passwords.
    assertTooMany(await proxied.client.post(`${API}/login`, { body: { email: ADMIN.email, password: ADMIN.password }, headers }), 'login from the exhausted address');
  });

  test('login attempts for many e-mails from one address share its bucket', async () => {
    const headers = newClient();
    for (let i = 0; i < 3; i++) {
      const response = await proxied.client.post(`${API}/login`, { body: { email: `sprayed-${i}@example.com`, password: 'wrong-password-1' }, headers });
      assert.is(response.status, 401, response.text);
    }
    assertTooMany(
      await proxied.client.post(`${API}/login`, { body: { email: 'sprayed-3@example.com', password: 'wrong-password-1' }, headers }),
      'fourth e-mail from the same address',
    );
  });

  test('without TRUST_PROXY, X-Forwarded-For does not give a client a new bucket', async () => {
    for (let i = 1; i <= 3; i++) {
      const response = await direct.client.get(PROTECTED, { headers: { 'x-forwarded-for': `10.1.0.${i}` } });
      assert.is(response.status, 401);
      assert.is(header(response, 'x-ratelimit-remaining'), String(3 - i));
    }
    assertTooMany(await direct.client.get(PROTECTED, { headers: { 'x-forwarded-for': '10.1.0.99' } }), 'spoofed address');
  });

  test('LOGIN_RATE_LIMIT_MAX=2: the third login for an e-mail is 429 even with the right password; another e-mail is not blocked', async () => {
    const headers = newClient();
    for (let i = 0; i < 2; i++) {
      const response = await logins.client.post(`${API}/login`, { body: { email: ADMIN.email, password: 'wrong-password-1' }, headers });
      assert.is(response.status, 401);
    }
    const right = await logins.client.post(`${API}/login`, { body: { email: ADMIN.email, password: ADMIN.password }, headers });
    assertTooMany(right, 'third login with the right password');
    assert.is(right.body.token, undefined);
    // Changing the case of the e-mail is the same e-mail.
    assertTooMany(await logins.client.post(`${API}/login`, { body: { email: ' Admin@Example.com ', password: ADMIN.password }, headers }), 'same e-mail in other case');
    const another = await logins.client.post(`${API}/login`, { body: { email: 'someone-else@example.com', password: 'wrong-password-1' }, headers });
    assert.is(another.status, 401, another.text);
    assert.equal(another.body, { message: 'The provided credentials are incorrect.' });
  });

  test('/health is not rate limited and does not use up the address bucket', async () => {
    const headers = newClient();
    for (let i = 0; i < 6; i++) {
      const response = await proxied.client.get('/health', { headers });
      assert.is(response.status, 200, `health call ${i + 1}`);
      assert.is(response.body.status, 'ok');
      assert.equal(Object.keys(response.body.pressure).sort(), ['event_loop_delay_ms', 'heap_used_mb', 'overloaded', 'rss_mb']);
      assert.is(response.headers['x-ratelimit-limit'], undefined);
    }
    const response = await proxied.client.get(PROTECTED, { headers });
    assert.is(response.status, 401);
    assert.is(header(response, 'x-ratelimit-remaining'), '2');
  });

  test.run();
}
