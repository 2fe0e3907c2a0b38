// Login, bearer tokens, logout and revocation over real HTTP, on every database target.
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ADMIN, API, sharedApp, startApp, TEST_JWT_SECRET, type StartOptions, type TestApp } from '../helpers/app.ts';
import type { Client } from '../helpers/http.ts';
import { databaseTargets, type Target } from '../helpers/targets.ts';

const UNAUTHENTICATED = { message: 'Unauthenticated.' };
const BAD_CREDENTIALS = { message: 'The provided credentials are incorrect.' };
/** A protected route every app has, whatever its seed: the users list shows the administrator. */
const PROTECTED = `${API}/support/users`;

interface Claims {
  sub: string;
  jti: string;
  iat: number;
  exp: number;
}

function claimsOf(token: string): Claims {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}

/** A JWT signed by hand (HMAC with the header's algorithm), to present tokens the service never issued. */
function signJwt(payload: Record<string, unknown>, secret: string, header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' }): string {
  const encode = (part: unknown) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const unsigned = `${encode(header)}.${encode(payload)}`;
  const hash = header.alg === 'HS512' ? 'sha512' : header.alg === 'HS384' ? 'sha384' : 'sha256';
  return `${unsigned}.${createHmac(hash, secret).update(unsigned).digest('base64url')}`;
}

async function login(client: Client, email: string, password: string) {
  return client.post(`${API}/login`, { body: { email, password } });
}

/** Asserts the token opens a protected route (the users list with the administrator in it). */
async function assertAccepted(client: Client, token: string, where: string) {
  const response = await client.get(PROTECTED, { token });
  assert.is(response.status, 200, `token refused ${where}: ${response.text}`);
  assert.ok(
    response.body.data.some((user: { email: string }) => user.email === ADMIN.email),
    `users list ${where} lacks the administrator`,
  );
}

async function assertRefused(client: Client, token: string, where: string) {
  const response = await client.get(PROTECTED, { token });
  assert.is(response.status, 401, `token accepted ${where}`);
  assert.equal(response.body, UNAUTHENTICATED);
}

for (const target of databaseTargets()) {
  const test = suite(`auth [${target.name}]`);
  // Apps this suite starts itself; closed in `after` unless a test closed them first.
  const opened = new Set<TestApp>();
  const tempDirs: string[] = [];
  let shortLived: TestApp;

  async function open(options: StartOptions): Promise<TestApp> {
    const testApp = await startApp(target, { minimalSeed: true, ...options });
    opened.add(testApp);
    return testApp;
  }
  async function close(testApp: TestApp): Promise<void> {
    opened.delete(testApp);
    await testApp.close();
  }
  /** A database two apps can share as two processes would: a file for SQLite, the run's database for MySQL. */
  function sharedDatabaseUrl(t: Target): string {
    if (t.name !== 'sqlite') return t.databaseUrl;
    const dir = mkdtempSync(join(tmpdir(), 'erp-auth-'));
    tempDirs.push(dir);
    return `sqlite:${join(dir, 'erp.sqlite')}`;
  }

  test.before(async () => {
    shortLived = await open({ env: { TOKEN_TTL: '1s' } });
  });

  test.after(async () => {
    for (const testApp of [...opened]) await close(testApp);
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });

  test('login returns the token and the user, exactly in the contract shape', async () => {
    const { client, knex } = await sharedApp(target);
    const response = await login(client, ADMIN.email, ADMIN.password);
    assert.is(response.status, 200);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    const admin = await knex('users').where('email', ADMIN.email).first('id');
    const { token, ...rest } = response.body;
    assert.type(token, 'string');
    assert.ok(token.length > 20, 'token too short');
    assert.equal(rest, {
      message: 'Login successful',
      token_type: 'Bearer',
      user: { id: Number(admin.id), name: ADMIN.name, email: ADMIN.email },
    });
    assert.equal(Object.keys(response.body).sort(), ['message', 'token', 'token_type', 'user']);
    await assertAccepted(client, token, 'right after login');
  });

  test('every login issues a new, distinct token', async () => {
    const { client } = await sharedApp(target);
    const first = await login(client, ADMIN.email, ADMIN.password);
    const second = await login(client, ADMIN.email, ADMIN.password);
    assert.is.not(first.body.token, second.body.token);
    await assertAccepted(client, first.body.token, 'for the first token');
    await assertAccepted(client, second.body.token, 'for the second token');
  });

  test('the e-mail is matched case-insensitively', async () => {
    const { client } = await sharedApp(target);
    const response = await login(client, 'ADMIN@Example.COM', ADMIN.password);
    assert.is(response.status, 200, response.text);
    assert.is(response.body.user.email, ADMIN.email);
    await assertAccepted(client, response.body.token, 'after an upper-case login');
  });

  test('a user carried over from the original installation logs in with the hash its PHP wrote ($2y$)', async () => {
    const { client, knex } = await sharedApp(target);
    // password_hash('correct-horse-9', PASSWORD_BCRYPT) in PHP 8.2, as the original's users table holds it.
    const hash = '$2y$10$k7TMyEH.LXmzXgxuqqGyi.tGPpz4g/bigmBNkK6I2ONuKfzmAMYUO';
    await knex('users').insert({ name: 'Carried Over', email: 'carried.over@example.com', password: hash });
    const response = await login(client, 'carried.over@example.com', 'correct-horse-9');
    assert.is(response.status, 200, response.text);
    assert.is(response.body.user.email, 'carried.over@example.com');
    const wrong = await login(client, 'carried.over@example.com', 'correct-horse-8');
    assert.is(wrong.status, 401);
    assert.equal(wrong.body, BAD_CREDENTIALS);
  });

  test('a wrong password is 401 with the credentials message and no token', async () => {
    const { client } = await sharedApp(target);
    const response = await login(client, ADMIN.email, 'wrong-password-1');
    assert.is(response.status, 401);
    assert.equal(response.body, BAD_CREDENTIALS);
  });

  test('an unknown e-mail is 401 with the same message as a wrong password', async () => {
    const { client } = await sharedApp(target);
    const response = await login(client, 'nobody@example.com', ADMIN.password);
    assert.is(response.status, 401);
    assert.equal(response.body, BAD_CREDENTIALS);
  });

  test('a missing e-mail and password are 422 with an error per field', async () => {
    const { client } = await sharedApp(target);
    const response = await client.post(`${API}/login`, { body: {} });
    assert.is(response.status, 422);
    assert.equal(response.body, {
      message: 'The email field is required. (and 1 more error)',
      errors: { email: ['The email field is required.'], password: ['The password field is required.'] },
    });
  });

  test('an invalid e-mail is 422 on email only', async () => {
    const { client } = await sharedApp(target);
    for (const email of ['not-an-email', 'admin example.com', 42]) {
      const response = await client.post(`${API}/login`, { body: { email, password: ADMIN.password } });
      assert.is(response.status, 422, `email ${JSON.stringify(email)}`);
      assert.equal(response.body, {
        message: 'The email field must be a valid email address.',
        errors: { email: ['The email field must be a valid email address.'] },
      });
    }
  });

  test('a missing or empty password is 422 on password only', async () => {
    const { client } = await sharedApp(target);
    for (const body of [{ email: ADMIN.email }, { email: ADMIN.email, password: '' }, { email: ADMIN.email, password: null }]) {
      const response = await client.post(`${API}/login`, { body });
      assert.is(response.status, 422, JSON.stringify(body));
      assert.equal(response.body, {
        message: 'The password field is required.',
        errors: { password: ['The password field is required.'] },
      });
    }
  });

  test('a protected route without a token is 401 Unauthenticated', async () => {
    const { client } = await sharedApp(target);
    for (const [method, path] of [
      ['GET', PROTECTED],
      ['GET', `${API}/support/banks`],
      ['POST', `${API}/support/banks`],
      ['POST', `${API}/logout`],
    ] as const) {
      const response = await client.send(method, path, method === 'POST' ? { body: {} } : {});
      assert.is(response.status, 401, `${method} ${path}`);
      assert.equal(response.body, UNAUTHENTICATED);
    }
  });

  test('a garbage or malformed Authorization header is 401 Unauthenticated', async () => {
    const { client, token } = await sharedApp(target);
    for (const authorization of [
      'Bearer garbage',
      'Bearer ',
      'Bearer a.b.c',
      `Bearer ${token}x`,
      `Basic ${Buffer.from(`${ADMIN.email}:${ADMIN.password}`).toString('base64')}`,
      token, // the token without its scheme
    ]) {
      const response = await client.get(PROTECTED, { headers: { authorization } });
      assert.is(response.status, 401, authorization);
      assert.equal(response.body, UNAUTHENTICATED);
    }
  });

  test('a token signed with another secret is refused; the same claims signed with ours pass', async () => {
    const { client, knex } = await sharedApp(target);
    const admin = await knex('users').where('email', ADMIN.email).first('id');
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: String(admin.id), jti: randomUUID(), iat: now, exp: now + 3600 };
    await assertRefused(client, signJwt(claims, 'another-secret-another-secret-another-0123'), 'when signed with another secret');
    await assertRefused(client, signJwt(claims, '', { alg: 'none', typ: 'JWT' }).replace(/[^.]*$/, ''), 'when unsigned (alg none)');
    // Control: the forging above is right, so the refusals are about the signature.
    await assertAccepted(client, signJwt(claims, TEST_JWT_SECRET), 'when signed with the service secret');
  });

  test('verification is pinned to HS256 and needs exp, sub and jti', async () => {
    const { client, knex } = await sharedApp(target);
    const admin = await knex('users').where('email', ADMIN.email).first('id');
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: String(admin.id), jti: randomUUID(), iat: now, exp: now + 3600 };
    await assertRefused(client, signJwt(claims, TEST_JWT_SECRET, { alg: 'HS512', typ: 'JWT' }), 'with another algorithm');
    for (const missing of ['exp', 'sub', 'jti'] as const) {
      const { [missing]: _, ...rest } = claims;
      await assertRefused(client, signJwt(rest, TEST_JWT_SECRET), `without ${missing}`);
    }
  });

  test('a well-signed token of a user that does not exist is refused', async () => {
    const { client } = await sharedApp(target);
    const now = Math.floor(Date.now() / 1000);
    await assertRefused(client, signJwt({ sub: '987654', jti: randomUUID(), iat: now, exp: now + 3600 }, TEST_JWT_SECRET), 'for an unknown user');
  });

  test('logout revokes the token used, and only that one', async () => {
    const { client, knex } = await sharedApp(target);
    const token = (await login(client, ADMIN.email, ADMIN.password)).body.token as string;
    const other = (await login(client, ADMIN.email, ADMIN.password)).body.token as string;
    await assertAccepted(client, token, 'before logout');

    const logout = await client.post(`${API}/logout`, { token });
    assert.is(logout.status, 200);
    assert.equal(logout.body, { message: 'Logout successful' });
    assert.ok(await knex('revoked_tokens').where('jti', claimsOf(token).jti).first(), 'revocation not stored');

    await assertRefused(client, token, 'after logout');
    const again = await client.post(`${API}/logout`, { token });
    assert.is(again.status, 401);
    assert.equal(again.body, UNAUTHENTICATED);
    await assertAccepted(client, other, 'for a second token of the same user');
  });

  test('a token revoked on one app is refused by another app on the same database, and after a restart', async () => {
    const databaseUrl = sharedDatabaseUrl(target);
    const first = await open({ env: { DATABASE_URL: databaseUrl } });
    const second = await open({ env: { DATABASE_URL: databaseUrl } });
    const revoked = await first.login();
    const kept = await first.login();
    await assertAccepted(second.client, revoked, 'by the second app before logout');

    const logout = await first.client.post(`${API}/logout`, { token: revoked });
    assert.is(logout.status, 200);
    await assertRefused(second.client, revoked, 'by the second app after logout on the first');
    await assertAccepted(second.client, kept, 'by the second app for a token not logged out');

    // A restart: every process stops, a new one starts on the same database and secret.
    await close(first);
    await close(second);
    const restarted = await open({ env: { DATABASE_URL: databaseUrl } });
    await assertRefused(restarted.client, revoked, 'after a restart');
    await assertAccepted(restarted.client, kept, 'after a restart for a token not logged out');
  });

  test('an expired token is refused', async () => {
    // TOKEN_TTL=1s: a token lives up to one second (exp is in whole seconds).
    let token = await shortLived.login();
    for (let attempt = 0; claimsOf(token).exp * 1000 - Date.now() < 400 && attempt < 5; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, claimsOf(token).exp * 1000 - Date.now())));
      token = await shortLived.login();
    }
    const claims = claimsOf(token);
    assert.is(claims.exp - claims.iat <= 1, true, `TOKEN_TTL=1s issued a token for ${claims.exp - claims.iat}s`);
    await assertAccepted(shortLived.client, token, 'before expiry');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await assertRefused(shortLived.client, token, 'after expiry');
    const logout = await shortLived.client.post(`${API}/logout`, { token });
    assert.is(logout.status, 401);
    assert.equal(logout.body, UNAUTHENTICATED);
  });

  test('tokens, Authorization headers and passwords never reach the logs', async () => {
    const testApp = await sharedApp(target);
    const { client, logs } = testApp;
    const from = logs.length;
    const token = await testApp.login();
    await client.get(PROTECTED, { token });
    await client.get(`${API}/support/banks/999999`, { token });
    await login(client, ADMIN.email, 'wrong-password-that-is-secret');
    await client.get(PROTECTED, { headers: { authorization: 'Bearer garbage-token-that-is-secret' } });
    await client.post(`${API}/logout`, { token });

    const written = logs.slice(from).join('');
    assert.ok(written.includes(`${API}/login`), 'the requests were not logged at all');
    for (const secret of [token, token.split('.')[2]!, ADMIN.password, 'wrong-password-that-is-secret', 'garbage-token-that-is-secret', 'Bearer']) {
      assert.not.ok(written.includes(secret), `the logs contain ${secret}`);
    }
  });

  test.run();
}
