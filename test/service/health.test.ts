// GET /health over real HTTP: 200 while the database answers, 503 once it does not; no token.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sharedApp, startApp, type TestApp } from '../helpers/app.ts';
import { databaseTargets } from '../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`health [${target.name}]`);
  let cut: TestApp | undefined;

  test.after(async () => {
    await cut?.close();
  });

  test('GET /health is 200 {"status":"ok"} without a token', async () => {
    const { client } = await sharedApp(target);
    const response = await client.get('/health');
    assert.is(response.status, 200, response.text);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.is(response.body.status, 'ok');
    assert.equal(Object.keys(response.body.pressure).sort(), ['event_loop_delay_ms', 'heap_used_mb', 'overloaded', 'rss_mb']);
  });

  test('a bad token does not matter to /health', async () => {
    const { client } = await sharedApp(target);
    const response = await client.get('/health', { headers: { authorization: 'Bearer garbage' } });
    assert.is(response.status, 200, response.text);
    assert.is(response.body.status, 'ok');
    assert.equal(Object.keys(response.body.pressure).sort(), ['event_loop_delay_ms', 'heap_used_mb', 'overloaded', 'rss_mb']);
  });

  test('GET /health is 503 once the database is gone, and says so in JSON', async () => {
    // An app on a connection of its own, so closing it leaves the other suites' database alone.
    cut = await startApp(target, { minimalSeed: true });
    const before = await cut.client.get('/health');
    assert.is(before.status, 200, before.text);
    assert.is(before.body.status, 'ok');
    assert.equal(Object.keys(before.body.pressure).sort(), ['event_loop_delay_ms', 'heap_used_mb', 'overloaded', 'rss_mb']);

    await cut.knex.destroy();
    // A hang fails at the client's timeout, far above the 2 s the health check allows itself.
    const after = await cut.client.get('/health', { timeoutMs: 30_000 });
    assert.is(after.status, 503, after.text);
    assert.match(String(after.headers['content-type']), /^application\/json/);
    assert.is.not(after.body.status, 'ok');
    assert.type(after.body.message, 'string');
  });

  test.run();
}
