// Optimistic concurrency: ETag on records, If-None-Match → 304, a stale If-Match → 412 that
// changes nothing; clients that send neither header see nothing different.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp, type TestApp } from '../helpers/app.ts';
import { databaseTargets } from '../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`etags [${target.name}]`);
  let app: TestApp & { token: string };
  const BANKS = `${API}/support/banks`;

  test.before(async () => {
    app = await sharedApp(target);
  });

  test('show, create and update carry the version; If-None-Match answers 304 while it holds', async () => {
    const created = await app.client.post(BANKS, { token: app.token, body: { name: `Versioned ${target.name}` } });
    const etag = created.headers.etag as string;
    assert.match(etag, /^W\/"[A-Za-z0-9_-]+"$/);
    const shown = await app.client.get(`${BANKS}/${created.body.data.id}`, { token: app.token });
    assert.is(shown.headers.etag, etag);
    assert.is((await app.client.get(`${BANKS}/${created.body.data.id}?include=country,creator`, { token: app.token })).headers.etag, etag, 'includes aside');
    const cached = await app.client.get(`${BANKS}/${created.body.data.id}`, { token: app.token, headers: { 'if-none-match': etag } });
    assert.equal([cached.status, cached.text], [304, '']);
    const updated = await app.client.put(`${BANKS}/${created.body.data.id}`, { token: app.token, body: { city: 'Springfield' } });
    assert.is.not(updated.headers.etag, etag);
    assert.is((await app.client.get(`${BANKS}/${created.body.data.id}`, { token: app.token, headers: { 'if-none-match': etag } })).status, 200);
  });

  test('a stale If-Match is a 412 that changes nothing; the current one (or *) goes through', async () => {
    const created = await app.client.post(BANKS, { token: app.token, body: { name: `Contested ${target.name}` } });
    const read = created.headers.etag as string;
    const first = await app.client.put(`${BANKS}/${created.body.data.id}`, { token: app.token, body: { city: 'First' }, headers: { 'if-match': read } });
    assert.is(first.status, 200, 'the first writer wins');
    const second = await app.client.put(`${BANKS}/${created.body.data.id}`, { token: app.token, body: { city: 'Second' }, headers: { 'if-match': read } });
    assert.equal([second.status, second.body], [412, { message: 'The record changed since you read it (If-Match): read it again and retry.' }]);
    assert.is((await app.knex('banks').where('id', created.body.data.id).first('city')).city, 'First');
    const stale = await app.client.delete(`${BANKS}/${created.body.data.id}`, { token: app.token, headers: { 'if-match': read } });
    assert.is(stale.status, 412);
    assert.is((await app.knex('banks').where('id', created.body.data.id).first('deleted_at')).deleted_at, null);
    assert.is(
      (await app.client.put(`${BANKS}/${created.body.data.id}`, { token: app.token, body: { city: 'Third' }, headers: { 'if-match': first.headers.etag as string } })).status,
      200,
    );
    assert.is((await app.client.delete(`${BANKS}/${created.body.data.id}`, { token: app.token, headers: { 'if-match': '*' } })).status, 200);
  });

  test.run();
}
