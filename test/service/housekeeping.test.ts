// The periodic clean-up (CLEANUP_INTERVAL) runs on its own in a started service: expired
// idempotency keys and token revocations go, the ones still in force stay.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { storedTimestamp } from '../../engine/serialize/value-formats.ts';
import { sharedApp, startApp, type TestApp } from '../helpers/app.ts';
import { databaseTargets } from '../helpers/targets.ts';

for (const target of databaseTargets()) {
  const test = suite(`housekeeping [${target.name}]`);
  let shared: TestApp;
  let cleaning: TestApp | undefined;

  test.before(async () => {
    shared = await sharedApp(target);
  });
  test.after(async () => {
    await cleaning?.close();
  });

  test('a service started with CLEANUP_INTERVAL=1s deletes what has expired, and only that, without being asked', async () => {
    const knex = shared.knex;
    const admin = (await knex('users').orderBy('id').first('id')).id as number;
    const at = (seconds: number) => storedTimestamp(new Date(Date.now() + seconds * 1000));
    const tag = `housekeeping-${target.name}-${Date.now()}`;
    await knex('revoked_tokens').insert([
      { jti: `${tag}-expired`, user_id: admin, expires_at: at(-60), revoked_at: at(-120) },
      { jti: `${tag}-live`, user_id: admin, expires_at: at(3600), revoked_at: at(-120) },
    ]);
    const key = (name: string, expires: number) => ({
      user_id: admin,
      key: `${tag}-${name}`,
      request_hash: 'x'.repeat(64),
      status_code: 201,
      response_body: '{}',
      created_at: at(-120),
      expires_at: at(expires),
    });
    await knex('idempotency_keys').insert([key('expired', -60), key('live', 3600)]);

    cleaning = await startApp(target, { knex, minimalSeed: true, env: { CLEANUP_INTERVAL: '1s' } });
    const left = async () => ({
      revocations: (await knex('revoked_tokens').where('jti', 'like', `${tag}-%`).orderBy('jti').pluck('jti')) as string[],
      keys: (await knex('idempotency_keys').where('key', 'like', `${tag}-%`).orderBy('key').pluck('key')) as string[],
    });
    // The first run comes 0.5 to 1.5 s after the service is ready.
    const deadline = Date.now() + 5000;
    let now = await left();
    while ((now.revocations.length > 1 || now.keys.length > 1) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      now = await left();
    }
    assert.equal(now, { revocations: [`${tag}-live`], keys: [`${tag}-live`] });
  });

  test.run();
}
