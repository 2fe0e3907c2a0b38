// Error responses over real HTTP: always JSON, the contract's bodies, and no internals on a 500.
import { request } from 'undici';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ADMIN, API, sharedApp, startApp, type TestApp } from '../helpers/app.ts';
import type { Response } from '../helpers/http.ts';
import { databaseTargets, freshDatabase } from '../helpers/targets.ts';

const NOT_FOUND = { message: 'The requested resource was not found.' };
const BANKS = `${API}/support/banks`;

function assertJson(response: Response, what: string) {
  assert.match(String(response.headers['content-type']), /^application\/json/, `${what}: content-type ${response.headers['content-type']}`);
  assert.ok(response.body !== undefined, `${what}: body is not JSON: ${response.text}`);
  assert.type(response.body.message, 'string', `${what}: no message`);
}

function allowed(response: Response): string[] {
  return String(response.headers.allow ?? '')
    .split(',')
    .map((method) => method.trim())
    .filter(Boolean)
    .sort();
}

/** A request sent exactly as given: no Accept header unless one is passed. */
async function rawRequest(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Response> {
  const response = await request(new URL(path, baseUrl), { method: method as 'GET', headers, body });
  const text = await response.body.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.statusCode, headers: response.headers, body: parsed, text };
}

for (const target of databaseTargets()) {
  const test = suite(`errors [${target.name}]`);
  let broken: TestApp | undefined;
  let brokenDatabase: Awaited<ReturnType<typeof freshDatabase>> | undefined;

  test.after(async () => {
    await broken?.close();
    await brokenDatabase?.drop();
  });

  async function bankCount(testApp: TestApp): Promise<number> {
    const [row] = await testApp.knex('banks').count({ n: '*' });
    return Number(row!.n);
  }

  async function category(testApp: TestApp, name: string): Promise<number> {
    const row = await testApp.knex('unit_of_measure_categories').where('name', name).first('id');
    assert.ok(row, `seeded category ${name} missing`);
    return Number(row.id);
  }

  test('every error is JSON, whatever the Accept header says', async () => {
    const testApp = await sharedApp(target);
    const base = testApp.client.baseUrl;
    const auth = { authorization: `Bearer ${testApp.token}` };
    const json = { 'content-type': 'application/json' };
    const cases: Array<[string, number, string, string, Record<string, string>, string?]> = [
      ['no token', 401, 'GET', BANKS, {}],
      ['wrong credentials', 401, 'POST', `${API}/login`, json, JSON.stringify({ email: ADMIN.email, password: 'wrong-password-1' })],
      ['unknown route', 404, 'GET', `${API}/nope`, auth],
      ['unknown record', 404, 'GET', `${BANKS}/999999`, auth],
      ['wrong method', 405, 'DELETE', BANKS, auth],
      ['malformed JSON', 400, 'POST', BANKS, { ...auth, ...json }, '{"name":'],
      ['validation', 422, 'POST', BANKS, { ...auth, ...json }, '{}'],
    ];
    const accepts: Array<Record<string, string>> = [{ accept: 'text/html' }, {}, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }];
    for (const accept of accepts) {
      for (const [what, status, method, path, headers, body] of cases) {
        const label = `${what} with Accept ${accept.accept ?? '(none)'}`;
        const response = await rawRequest(base, method, path, { ...accept, ...headers }, body);
        assert.is(response.status, status, `${label}: ${response.text}`);
        assertJson(response, label);
        assert.not.match(response.text, /<html|<!doctype/i, label);
      }
    }
  });

  test('a malformed JSON body is 400 with a message, on any route', async () => {
    const testApp = await sharedApp(target);
    const { client, token } = testApp;
    const before = await bankCount(testApp);
    for (const [method, path, rawBody] of [
      ['POST', BANKS, '{"name": "Broken Bank",'],
      ['POST', BANKS, "{'name': 'Single Quotes'}"],
      ['PUT', `${BANKS}/1`, 'name=Form'],
      ['POST', `${API}/login`, `{"email": "${ADMIN.email}", "password": `],
    ] as const) {
      const response = await client.send(method, path, { token, rawBody });
      assert.is(response.status, 400, `${method} ${path} ${rawBody}: ${response.text}`);
      assert.equal(response.body, { message: 'The request body is not valid JSON.' });
    }
    assert.is(await bankCount(testApp), before, 'a bank was stored');
  });

  test('a body that pollutes the prototype is refused with 400', async () => {
    const { client, token } = await sharedApp(target);
    const response = await client.post(BANKS, { token, rawBody: '{"name": "Proto Bank", "__proto__": {"admin": true}}' });
    assert.is(response.status, 400, response.text);
    assertJson(response, 'prototype pollution');
  });

  test('a body over the size limit is 413 with a message', async () => {
    const testApp = await sharedApp(target);
    const before = await bankCount(testApp);
    const response = await testApp.client.post(BANKS, { token: testApp.token, body: { name: 'Big Bank', street2: 'x'.repeat(1024 * 1024 + 1) } });
    assert.is(response.status, 413, response.text);
    assert.equal(response.body, { message: 'The request body is too large.' });
    assert.is(await bankCount(testApp), before, 'a bank was stored');
  });

  test('a path with broken percent-encoding is 400 with only a message', async () => {
    const { client, token } = await sharedApp(target);
    for (const options of [{}, { token }]) {
      const response = await client.get(`${BANKS}/%E0%A4%A`, options);
      assert.is(response.status, 400, response.text);
      assertJson(response, 'broken percent-encoding');
      assert.equal(Object.keys(response.body), ['message']);
      assert.not.match(response.text, /FST_/);
    }
  });

  test('a JSON array or string as a create body is 400 and stores nothing', async () => {
    const testApp = await sharedApp(target);
    const { client, token } = testApp;
    const before = await bankCount(testApp);
    for (const body of [[{ name: 'Array Bank' }], 'Bank', 42, true]) {
      const response = await client.post(BANKS, { token, body });
      assert.is(response.status, 400, `${JSON.stringify(body)}: ${response.text}`);
      assert.equal(response.body, { message: 'The request body must be a JSON object.' });
    }
    assert.is(await bankCount(testApp), before, 'a bank was stored');
  });

  test('a body that is not JSON at all is refused with a JSON message', async () => {
    const { client, token } = await sharedApp(target);
    const response = await client.post(BANKS, { token, rawBody: 'name=Form+Bank', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.is(response.status, 415, response.text);
    assert.equal(response.body, { message: 'Unsupported content type: send application/json.' });
  });

  test('Content-Type: application/json with an empty body is no body (logout works; create validates)', async () => {
    const testApp = await sharedApp(target);
    const token = await testApp.login();
    const logout = await testApp.client.post(`${API}/logout`, { token, rawBody: '' });
    assert.is(logout.status, 200, logout.text);
    assert.equal(logout.body, { message: 'Logout successful' });
    assert.is((await testApp.client.get(BANKS, { token })).status, 401, 'the token still works after logout');

    const create = await testApp.client.post(`${API}/support/uom-categories`, { token: testApp.token, rawBody: '' });
    assert.is(create.status, 422, create.text);
    assert.equal(create.body, { message: 'The name field is required.', errors: { name: ['The name field is required.'] } });
  });

  test('an unknown route is 404 with the contract message, with or without a token', async () => {
    const { client, token } = await sharedApp(target);
    for (const path of ['/nope', `${API}/nope`, `${API}/support/nope`, '/admin/api/v2/support/banks', `${API}/support/uom-categories/1/restore`]) {
      for (const options of [{}, { token }]) {
        const response = await client.get(path, options);
        assert.is(response.status, 404, `${path}: ${response.text}`);
        assert.equal(response.body, NOT_FOUND);
      }
    }
    const restore = await client.post(`${API}/support/uom-categories/1/restore`, { token });
    assert.is(restore.status, 404, 'an operation the resource does not have');
    assert.equal(restore.body, NOT_FOUND);
  });

  test('a wrong method on a known path is 405 with an Allow header', async () => {
    const { client, token } = await sharedApp(target);
    for (const [method, path, expected] of [
      ['DELETE', BANKS, ['GET', 'POST']],
      ['PUT', `${API}/support/uom-categories`, ['GET', 'POST']],
      ['POST', `${API}/support/uom-categories/1`, ['DELETE', 'GET', 'PATCH', 'PUT']],
      ['GET', `${API}/login`, ['POST']],
      ['GET', `${API}/logout`, ['POST']],
    ] as const) {
      const response = await client.send(method, path, { token });
      assert.is(response.status, 405, `${method} ${path}: ${response.text}`);
      assertJson(response, `${method} ${path}`);
      assert.equal(allowed(response), [...expected], `${method} ${path}`);
    }
  });

  test('an unknown or non-numeric record id is 404 with the contract message', async () => {
    const { client, token } = await sharedApp(target);
    const cases: Array<[string, string, unknown?]> = [
      ['GET', `${BANKS}/999999999`],
      ['GET', `${BANKS}/abc`],
      ['GET', `${BANKS}/1.5`],
      ['GET', `${BANKS}/-1`],
      ['GET', `${BANKS}/1e3`],
      ['GET', `${BANKS}/99999999999999999999999`],
      ['PUT', `${BANKS}/999999999`, { name: 'Nowhere Bank' }],
      ['DELETE', `${BANKS}/999999999`],
      ['DELETE', `${BANKS}/abc`],
      ['GET', `${API}/support/uom-categories/999999999/uoms`],
      ['GET', `${API}/support/uom-categories/abc/uoms`],
    ];
    for (const [method, path, body] of cases) {
      const response = await client.send(method, path, { token, body });
      assert.is(response.status, 404, `${method} ${path}: ${response.text}`);
      assert.equal(response.body, NOT_FOUND);
    }
  });

  test('a create under a category that does not exist: an invalid body is 422 first (reference §1.2), a valid one 404', async () => {
    const testApp = await sharedApp(target);
    const { client, token, knex } = testApp;
    const weight = await category(testApp, 'Weight');
    const orphans = `${API}/support/uom-categories/999999999/uoms`;
    const naming = await client.post(orphans, { token, body: { type: 'bigger', name: 'Orphan', factor: 2, rounding: 0.01, category_id: 999999999 } });
    assert.is(naming.status, 422, naming.text);
    assert.equal(naming.body.errors, { category_id: ['The selected category id is invalid.'] });
    const empty = await client.post(orphans, { token, body: {} });
    assert.is(empty.status, 422, empty.text);
    const valid = await client.post(orphans, { token, body: { type: 'bigger', name: 'Orphan', factor: 2, rounding: 0.01, category_id: weight } });
    assert.is(valid.status, 404, valid.text);
    assert.equal(valid.body, NOT_FOUND);
    assert.is(await knex('unit_of_measures').where('name', 'Orphan').first(), undefined, 'nothing stored');
  });

  test('a UOM asked for under a category it does not belong to is 404, and left unchanged', async () => {
    const testApp = await sharedApp(target);
    const { client, token, knex } = testApp;
    const weight = await category(testApp, 'Weight');
    const unit = await category(testApp, 'Unit');
    const kg = await knex('unit_of_measures').where({ category_id: weight, name: 'kg' }).first('id');
    assert.ok(kg, 'seeded UOM kg missing');
    const right = `${API}/support/uom-categories/${weight}/uoms/${kg.id}`;
    const wrong = `${API}/support/uom-categories/${unit}/uoms/${kg.id}`;

    const shown = await client.get(right, { token });
    assert.is(shown.status, 200, shown.text);
    assert.is(shown.body.data.name, 'kg');

    for (const [method, path, body] of [
      ['GET', wrong, undefined],
      ['PUT', wrong, { name: 'kg-moved' }],
      ['DELETE', wrong, undefined],
      ['POST', `${wrong}/restore`, undefined],
      ['DELETE', `${wrong}/force`, undefined],
    ] as const) {
      const response = await client.send(method, path, { token, body });
      assert.is(response.status, 404, `${method} ${path}: ${response.text}`);
      assert.equal(response.body, NOT_FOUND);
    }
    const stored = await knex('unit_of_measures').where('id', kg.id).first('name', 'category_id', 'deleted_at');
    assert.equal({ ...stored, category_id: Number(stored.category_id) }, { name: 'kg', category_id: weight, deleted_at: null });
  });

  test('a 422 message is the first error plus how many more', async () => {
    const testApp = await sharedApp(target);
    const { client, token } = testApp;
    const weight = await category(testApp, 'Weight');

    const all = await client.post(`${API}/support/uom-categories/${weight}/uoms`, { token, body: {} });
    assert.is(all.status, 422, all.text);
    assert.equal(Object.keys(all.body.errors), ['type', 'name', 'factor', 'rounding', 'category_id']);
    assert.is(all.body.message, 'The type field is required. (and 4 more errors)');
    for (const messages of Object.values(all.body.errors) as unknown[]) {
      assert.ok(Array.isArray(messages) && messages.length > 0 && messages.every((m) => typeof m === 'string'));
    }

    const before = await bankCount(testApp);
    const two = await client.post(BANKS, { token, body: { name: 'x'.repeat(256), email: 'not-an-email' } });
    assert.is(two.status, 422, two.text);
    assert.equal(two.body, {
      message: 'The name field must not be greater than 255 characters. (and 1 more error)',
      errors: {
        name: ['The name field must not be greater than 255 characters.'],
        email: ['The email field must be a valid email address.'],
      },
    });

    const missing = await client.post(BANKS, { token, body: { email: 'not-an-email' } });
    assert.is(missing.status, 422, missing.text);
    assert.is(missing.body.message, 'The name field is required. (and 1 more error)');
    const single = await client.post(BANKS, { token, body: { name: 'Valid Name', email: 'not-an-email' } });
    assert.equal(single.body, { message: 'The email field must be a valid email address.', errors: { email: ['The email field must be a valid email address.'] } });
    assert.is(await bankCount(testApp), before, 'an invalid bank was stored');
  });

  test('a real server fault is 500 "Server error occurred." with no internals, and is logged', async () => {
    // A database of its own, which the test breaks: a copy of the migrated template (what a fault
    // looks like does not depend on how the schema came to be; migrating MariaDB took 15-20 s).
    brokenDatabase = await freshDatabase(target, 'fault', { migrated: true });
    broken = await startApp(brokenDatabase.target, { minimalSeed: true });
    const token = await broken.login();
    const healthy = await broken.client.get(BANKS, { token });
    assert.is(healthy.status, 200, healthy.text);

    // Partners' bank accounts reference banks: they go first (MySQL refuses to drop a referenced
    // table), after their search index (on MySQL/MariaDB, word pairs that reference them).
    for (const table of ['partners_bank_accounts_search', 'partners_bank_accounts', 'banks_search', 'banks']) await broken.knex.schema.dropTableIfExists(table);
    const from = broken.logs.length;
    for (const [method, path, body] of [
      ['GET', BANKS, undefined],
      ['GET', `${BANKS}/1`, undefined],
      ['POST', BANKS, { name: 'Lost Bank' }],
    ] as const) {
      const response = await broken.client.send(method, path, { token, body, headers: { 'x-request-id': `report-${method}-${path.length}` } });
      assert.is(response.status, 500, `${method} ${path}: ${response.text}`);
      assert.equal(response.body, { message: 'Server error occurred.', request_id: `report-${method}-${path.length}` });
      assert.is(response.headers['x-request-id'], `report-${method}-${path.length}`);
      assert.not.match(response.text, /banks|select|insert|sqlite|ER_|stack|\.ts|errno/i, `${method} ${path} leaks internals`);
      const line = broken.logs.find((entry) => entry.includes('"level":50') && entry.includes(`"reqId":"report-${method}-${path.length}"`));
      assert.ok(line, 'the 500 and its log line share the request id');
    }
    const logged = broken.logs.slice(from).join('');
    assert.match(logged, /banks/, 'the fault is not in the logs');
    assert.match(logged, /"level":50/, 'the fault is not logged as an error');
    assert.not.ok(logged.includes(token), 'the token is in the logs');
    assert.not.ok(logged.includes('Lost Bank'), 'no request body (nor bound value) is logged');
  });

  test.run();
}
