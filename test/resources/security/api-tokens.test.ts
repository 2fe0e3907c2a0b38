// API tokens for integrations, and permission changes seen by every process on the next request.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API, sharedApp, startApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const TOKENS = `${API}/security/tokens`;
const ROLES = `${API}/security/roles`;
const USERS = `${API}/security/users`;

for (const target of databaseTargets()) {
  const test = suite(`api tokens [${target.name}]`);
  let app: TestApp & { token: string };
  /** A second process on the same database, with its own access cache. */
  let other: TestApp;
  let roleId: number;
  let userToken: string;

  test.before(async () => {
    app = await sharedApp(target);
    other = await startApp(target, { knex: app.knex });
    const role = await app.client.post(ROLES, {
      token: app.token,
      body: { name: `Tag sync ${target.name}`, permissions: ['view_any_inventory_tag', 'view_inventory_tag', 'create_inventory_tag'] },
    });
    roleId = role.body.data.id;
    const email = `sync.${target.name}@example.com`;
    await app.client.post(USERS, { token: app.token, body: { name: 'Sync owner', email, password: 'sync-password', roles: [roleId] } });
    userToken = (await app.client.post(`${API}/login`, { body: { email, password: 'sync-password' } })).body.token;
  });

  test.after(async () => {
    await other?.close();
  });

  test('issued once with its secret; listed without it; works only within its abilities', async () => {
    const created = await app.client.post(TOKENS, { token: userToken, body: { name: 'Shop sync', abilities: ['view_any_inventory_tag'] } });
    assert.is(created.status, 201, created.text);
    assert.equal(Object.keys(created.body).sort(), ['data', 'message', 'token']);
    assert.is(created.body.message, 'API token created successfully.');
    assert.equal(created.body.data.abilities, ['view_any_inventory_tag']);
    assert.is(created.body.data.expires_at, null);
    const secret = created.body.token as string;
    const stored = await app.knex('api_tokens').where('id', created.body.data.id).first('token_hash');
    assert.is.not(stored.token_hash, secret, 'only a hash is stored');
    assert.ok(!JSON.stringify(await app.knex('api_tokens').where('id', created.body.data.id).first()).includes(secret));

    assert.is((await app.client.get(`${API}/inventories/tags`, { token: secret })).status, 200);
    assert.is((await other.client.get(`${API}/inventories/tags`, { token: secret })).status, 200, 'in every process');
    const write = await app.client.post(`${API}/inventories/tags`, { token: secret, body: { name: `Not by token ${target.name}` } });
    assert.is(write.status, 403, 'the user may create tags, the token may not');

    const listed = await app.client.get(TOKENS, { token: userToken });
    assert.is(listed.status, 200);
    const mine = listed.body.data.find((row: any) => row.id === created.body.data.id);
    assert.ok(mine, 'listed');
    assert.not.ok('token' in mine || 'token_hash' in mine, 'never the secret');
    assert.ok(mine.last_used_at, 'last use recorded');
    const admins = await app.client.get(TOKENS, { token: app.token });
    assert.not.ok(
      admins.body.data.some((row: any) => row.id === created.body.data.id),
      'nobody else’s tokens',
    );
  });

  test('abilities must be known permissions the caller holds; an expiry must be in the future', async () => {
    const unknown = await app.client.post(TOKENS, { token: userToken, body: { name: 'x', abilities: ['view_any_inventory_tag', 'teleport'] } });
    assert.is(unknown.status, 422);
    assert.equal(unknown.body.errors, { 'abilities.1': ['The selected abilities.1 is invalid.'] });
    const beyond = await app.client.post(TOKENS, { token: userToken, body: { name: 'x', abilities: ['delete_inventory_tag'] } });
    assert.is(beyond.status, 403);
    const past = await app.client.post(TOKENS, { token: userToken, body: { name: 'x', abilities: ['view_any_inventory_tag'], expires_at: '2020-01-01T00:00:00Z' } });
    assert.equal(past.body.errors, { expires_at: ['The expires at field must be a date after now.'] });
    const tooMany = await app.client.post(TOKENS, { token: userToken, body: { name: 'x', abilities: Array.from({ length: 1001 }, () => 'view_any_inventory_tag') } });
    assert.equal(tooMany.body.errors, { abilities: ['The abilities field must not have more than 1000 items.'] });
    const missing = await app.client.post(TOKENS, { token: userToken, body: {} });
    assert.equal(Object.keys(missing.body.errors), ['name', 'abilities']);
    const expiring = await app.client.post(TOKENS, {
      token: userToken,
      body: { name: 'Tomorrow', abilities: ['view_any_inventory_tag'], expires_at: new Date(Date.now() + 86_400_000).toISOString() },
    });
    assert.is(expiring.status, 201);
    assert.ok(expiring.body.data.expires_at);
  });

  test('a token loses what its user loses, on the next request in every process; revoked, it stops', async () => {
    const created = await app.client.post(TOKENS, { token: userToken, body: { name: 'Tags', abilities: ['view_any_inventory_tag', 'create_inventory_tag'] } });
    const secret = created.body.token as string;
    const create = (client: TestApp['client'], n: number) => client.post(`${API}/inventories/tags`, { token: secret, body: { name: `Token tag ${n} ${target.name}` } });
    assert.is((await create(app.client, 1)).status, 201);
    assert.is((await create(other.client, 2)).status, 201, 'the other process caches it too');

    const narrowed = await app.client.put(`${ROLES}/${roleId}`, { token: app.token, body: { permissions: ['view_any_inventory_tag', 'view_inventory_tag'] } });
    assert.is(narrowed.status, 200);
    assert.is((await create(other.client, 3)).status, 403, 'the other process sees the change at once');
    assert.is((await create(app.client, 4)).status, 403);
    assert.is((await app.client.get(`${API}/inventories/tags`, { token: secret })).status, 200);

    assert.is(
      (await app.client.put(`${ROLES}/${roleId}`, { token: app.token, body: { permissions: ['view_any_inventory_tag', 'view_inventory_tag', 'create_inventory_tag'] } })).status,
      200,
    );
    assert.is((await create(other.client, 5)).status, 201, 'and given back');

    const revoked = await app.client.delete(`${TOKENS}/${created.body.data.id}`, { token: userToken });
    assert.equal(revoked.body, { message: 'API token revoked successfully.' });
    assert.is((await other.client.get(`${API}/inventories/tags`, { token: secret })).status, 401, 'revoked everywhere');
    assert.is((await app.client.delete(`${TOKENS}/${created.body.data.id}`, { token: userToken })).status, 404, 'already gone');
  });

  test('someone else’s token cannot be revoked; logout with an API token revokes that token', async () => {
    const mine = await app.client.post(TOKENS, { token: userToken, body: { name: 'Mine', abilities: ['view_any_inventory_tag'] } });
    assert.is((await app.client.delete(`${TOKENS}/${mine.body.data.id}`, { token: app.token })).status, 404);
    const secret = mine.body.token as string;
    assert.is((await app.client.post(`${API}/logout`, { token: secret })).status, 200);
    assert.is((await app.client.get(`${API}/inventories/tags`, { token: secret })).status, 401);
    assert.is(await app.knex('api_tokens').where('id', mine.body.data.id).first(), undefined);
  });

  test('a deactivated user’s tokens stop working in every process', async () => {
    const email = `dormant.${target.name}@example.com`;
    const user = await app.client.post(USERS, { token: app.token, body: { name: 'Dormant', email, password: 'dormant-password', roles: [roleId] } });
    const login = (await app.client.post(`${API}/login`, { body: { email, password: 'dormant-password' } })).body.token;
    const token = (await app.client.post(TOKENS, { token: login, body: { name: 'Dormant sync', abilities: ['view_any_inventory_tag'] } })).body.token;
    assert.is((await other.client.get(`${API}/inventories/tags`, { token })).status, 200);
    await app.client.put(`${USERS}/${user.body.data.id}`, { token: app.token, body: { is_active: false } });
    assert.is((await other.client.get(`${API}/inventories/tags`, { token })).status, 401);
    assert.is((await other.client.get(`${API}/inventories/tags`, { token: login })).status, 401);
  });

  test.run();
}
