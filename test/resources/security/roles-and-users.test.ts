// Roles and users over the API: permissions by name, write-only passwords, and the rules that keep
// anyone from granting more than they hold or locking themselves out of user management.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { userWith } from '../../helpers/access.ts';
import { API, sharedApp, type TestApp } from '../../helpers/app.ts';
import { databaseTargets } from '../../helpers/targets.ts';

const ROLES = `${API}/security/roles`;
const USERS = `${API}/security/users`;
const FORBIDDEN = { message: 'This action is unauthorized.' };
/** What a user manager holds: the users and roles screens, nothing else. */
const USER_MANAGER = [
  'view_any_security_user',
  'view_security_user',
  'create_security_user',
  'update_security_user',
  'delete_security_user',
  'restore_security_user',
  'view_any_security_role',
  'view_security_role',
  'create_security_role',
  'update_security_role',
  'delete_security_role',
];

for (const target of databaseTargets()) {
  const test = suite(`roles and users [${target.name}]`);
  let app: TestApp & { token: string };
  const admin = () => app.token;
  const login = async (email: string, password: string) => (await app.client.post(`${API}/login`, { body: { email, password } })).body.token as string;

  test.before(async () => {
    app = await sharedApp(target);
  });

  test('a role takes permission names, shows them, and names an unknown one by its place', async () => {
    const created = await app.client.post(`${ROLES}?include=users`, {
      token: admin(),
      body: { name: `Viewer ${target.name}`, permissions: ['view_any_inventory_tag', 'view_inventory_tag', 'view_any_inventory_tag'] },
    });
    assert.is(created.status, 201, created.text);
    assert.is(created.body.message, 'Role created successfully.');
    assert.equal(created.body.data.permissions.map((p: any) => p.name).sort(), ['view_any_inventory_tag', 'view_inventory_tag']);
    assert.equal(created.body.data.users, []);
    const unknown = await app.client.put(`${ROLES}/${created.body.data.id}`, { token: admin(), body: { permissions: ['view_inventory_tag', 'fly_to_the_moon'] } });
    assert.is(unknown.status, 422);
    assert.equal(unknown.body.errors, { 'permissions.1': ['The selected permissions.1 is invalid.'] });
    const stored = await app.knex('role_permissions').where('role_id', created.body.data.id).count({ n: '*' }).first();
    assert.is(Number(stored!.n), 2, 'nothing changed');
  });

  test('a user: password write-only and hashed, e-mail unique whatever its case, roles and companies included', async () => {
    const role = await app.client.post(ROLES, { token: admin(), body: { name: `Tag reader ${target.name}`, permissions: ['view_any_inventory_tag'] } });
    const company = await app.knex('companies').orderBy('id').first('id');
    const body = { name: 'Bea Reader', email: `Bea.${target.name}@Example.com`, password: 'bea-password', roles: [role.body.data.id], allowed_companies: [company.id] };
    const created = await app.client.post(`${USERS}?include=roles,companies`, { token: admin(), body });
    assert.is(created.status, 201, created.text);
    const data = created.body.data;
    assert.is(data.email, `bea.${target.name}@example.com`);
    assert.not.ok('password' in data, 'the password never appears');
    assert.equal(
      data.roles.map((r: any) => r.name),
      [`Tag reader ${target.name}`],
    );
    assert.equal(
      data.companies.map((c: any) => c.id),
      [company.id],
    );
    assert.is(data.is_active, true);
    assert.is(data.resource_permission, 'global');
    const stored = await app.knex('users').where('id', data.id).first('password');
    assert.match(stored.password, /^\$2[aby]\$10\$/);

    const again = await app.client.post(USERS, { token: admin(), body: { ...body, email: body.email.toUpperCase() } });
    assert.is(again.status, 422);
    assert.equal(again.body.errors, { email: ['The email has already been taken.'] });
    const short = await app.client.post(USERS, { token: admin(), body: { ...body, email: `short.${target.name}@example.com`, password: 'short' } });
    assert.equal(short.body.errors, { password: ['The password field must be at least 8 characters.'] });

    const token = await login(body.email, 'bea-password');
    const tag = await app.client.post(`${API}/inventories/tags`, { token: admin(), body: { name: `Readable ${target.name}` } });
    assert.is((await app.client.get(`${API}/inventories/tags`, { token })).status, 200);
    assert.is((await app.client.get(`${API}/inventories/tags/${tag.body.data.id}`, { token })).status, 403, 'view is not view_any');
    const changed = await app.client.put(`${USERS}/${data.id}`, { token: admin(), body: { password: 'new-bea-password' } });
    assert.is(changed.status, 200);
    assert.ok(await login(body.email, 'new-bea-password'), 'the new password logs in');
  });

  test('a deactivated or deleted user is refused on the next request, and cannot log in; restored, they can', async () => {
    const created = await app.client.post(USERS, { token: admin(), body: { name: 'Dee', email: `dee.${target.name}@example.com`, password: 'dee-password', roles: [] } });
    const id = created.body.data.id;
    const token = await login(`dee.${target.name}@example.com`, 'dee-password');
    assert.is((await app.client.get(`${API}/security/tokens`, { token })).status, 200);

    assert.is((await app.client.put(`${USERS}/${id}`, { token: admin(), body: { is_active: false } })).status, 200);
    assert.is((await app.client.get(`${API}/security/tokens`, { token })).status, 401, 'deactivated');
    assert.is((await app.client.post(`${API}/login`, { body: { email: `dee.${target.name}@example.com`, password: 'dee-password' } })).status, 401);

    assert.is((await app.client.put(`${USERS}/${id}`, { token: admin(), body: { is_active: true } })).status, 200);
    assert.is((await app.client.get(`${API}/security/tokens`, { token })).status, 200, 'active again');
    assert.is((await app.client.delete(`${USERS}/${id}`, { token: admin() })).status, 200);
    assert.is((await app.client.get(`${API}/security/tokens`, { token })).status, 401, 'deleted');
    const version = async () => Number((await app.knex('access_state').where('id', 1).first('version')).version);
    const before = await version();
    const restored = await app.client.post(`${USERS}/${id}/restore`, { token: admin() });
    assert.is(restored.status, 200);
    assert.ok((await version()) > before, 'a restore drops every process’s cached permissions');
    assert.is((await app.client.get(`${API}/security/tokens`, { token })).status, 200, 'restored');
  });

  test('no privilege escalation: roles, users and companies beyond what the caller holds are 403', async () => {
    const manager = await userWith(app, { only: USER_MANAGER, resourcePermission: 'group', companies: [1] });
    const tags = await app.client.post(ROLES, { token: manager.token, body: { name: `Sneaky ${target.name}`, permissions: ['delete_inventory_tag'] } });
    assert.is(tags.status, 403, 'a role with a permission the caller lacks');
    assert.equal(tags.body, FORBIDDEN);
    assert.is(await app.knex('roles').where('name', `Sneaky ${target.name}`).first(), undefined);

    const own = await app.client.post(ROLES, { token: manager.token, body: { name: `Helpers ${target.name}`, permissions: ['view_any_security_user'] } });
    assert.is(own.status, 201, 'a role within what the caller holds');
    const widened = await app.client.put(`${ROLES}/${own.body.data.id}`, { token: manager.token, body: { permissions: ['view_any_security_user', 'view_any_sale_order'] } });
    assert.is(widened.status, 403, 'adding a permission the caller lacks');
    const narrowed = await app.client.put(`${ROLES}/${own.body.data.id}`, { token: manager.token, body: { permissions: [] } });
    assert.is(narrowed.status, 200, 'taking permissions away is fine');

    const admins = await app.knex('roles').where('name', 'Admin').first('id');
    const asAdmin = await app.client.post(USERS, {
      token: manager.token,
      body: { name: 'Mallory', email: `mallory.${target.name}@example.com`, password: 'mallory-pw', roles: [admins.id] },
    });
    assert.is(asAdmin.status, 403, 'a user with the Admin role');
    const global = await app.client.post(USERS, {
      token: manager.token,
      body: { name: 'Mallory', email: `mallory.${target.name}@example.com`, password: 'mallory-pw', resource_permission: 'global' },
    });
    assert.is(global.status, 403, 'a wider record scope than the caller’s');
    const other = await app.client.post(`${API}/support/companies`, { token: admin(), body: { name: `Elsewhere ${target.name}`, currency_id: 1 } });
    const elsewhere = await app.client.post(USERS, {
      token: manager.token,
      body: { name: 'Mallory', email: `mallory.${target.name}@example.com`, password: 'mallory-pw', allowed_companies: [other.body.data.id] },
    });
    assert.is(elsewhere.status, 403, 'a company the caller does not work in');
    assert.is(await app.knex('users').where('email', `mallory.${target.name}@example.com`).first(), undefined, 'nobody was created');

    const adminUser = await app.knex('users').where('email', 'admin@example.com').first('id', 'password');
    const takeover = await app.client.put(`${USERS}/${adminUser.id}`, { token: manager.token, body: { password: 'i-own-you-now' } });
    assert.is(takeover.status, 403, 'changing a user who holds more than the caller');
    assert.is((await app.knex('users').where('id', adminUser.id).first('password')).password, adminUser.password);
    assert.is((await app.client.delete(`${USERS}/${adminUser.id}`, { token: manager.token })).status, 403);
  });

  test('nobody takes away their own right to manage users, or deletes themselves', async () => {
    const role = await app.client.post(ROLES, { token: admin(), body: { name: `User managers ${target.name}`, permissions: USER_MANAGER } });
    const created = await app.client.post(USERS, {
      token: admin(),
      body: { name: 'Uma', email: `uma.${target.name}@example.com`, password: 'uma-password', roles: [role.body.data.id], resource_permission: 'individual' },
    });
    const me = created.body.data.id;
    const token = await login(`uma.${target.name}@example.com`, 'uma-password');
    const refusal = { message: 'You cannot remove your own permission to manage users.' };
    const version = async () => Number((await app.knex('access_state').where('id', 1).first('version')).version);
    const before = await version();

    const noRoles = await app.client.put(`${USERS}/${me}`, { token, body: { roles: [] } });
    assert.is(noRoles.status, 422);
    assert.equal(noRoles.body, refusal);
    const inactive = await app.client.put(`${USERS}/${me}`, { token, body: { is_active: false } });
    assert.equal(inactive.body, refusal);
    const stripped = await app.client.put(`${ROLES}/${role.body.data.id}`, { token, body: { permissions: ['view_any_security_user'] } });
    assert.equal(stripped.body, refusal);
    const dropped = await app.client.delete(`${ROLES}/${role.body.data.id}`, { token });
    assert.equal(dropped.body, refusal);
    const self = await app.client.delete(`${USERS}/${me}`, { token });
    assert.is(self.status, 422);
    assert.equal(self.body, { message: 'You cannot delete your own user.' });

    const kept = await app.knex('user_roles').where({ user_id: me, role_id: role.body.data.id }).first();
    assert.ok(kept, 'the role is still held');
    assert.is((await app.knex('role_permissions').where('role_id', role.body.data.id).count({ n: '*' }).first())!.n, USER_MANAGER.length);
    assert.is(await version(), before, 'a refused write drops no cached permissions: its invalidation rolled back with it');
    const renamed = await app.client.put(`${USERS}/${me}`, { token, body: { name: 'Uma M.' } });
    assert.is(renamed.status, 200, 'changing anything else of one’s own is fine');
  });

  test('the Admin role keeps its name and every permission, and cannot be deleted', async () => {
    const adminRole = await app.knex('roles').where('name', 'Admin').first('id');
    const renamed = await app.client.put(`${ROLES}/${adminRole.id}`, { token: admin(), body: { name: 'Boss' } });
    assert.equal(renamed.body.errors, { name: ['The Admin role cannot be renamed.'] });
    const trimmed = await app.client.put(`${ROLES}/${adminRole.id}`, { token: admin(), body: { permissions: ['view_any_inventory_tag'] } });
    assert.equal(trimmed.body.errors, { permissions: ['The Admin role always holds every permission.'] });
    const deleted = await app.client.delete(`${ROLES}/${adminRole.id}`, { token: admin() });
    assert.is(deleted.status, 409);
    assert.equal(deleted.body, { message: 'The Admin role cannot be deleted.' });
    const all = await app.knex('permissions').count({ n: '*' }).first();
    const held = await app.knex('role_permissions').where('role_id', adminRole.id).count({ n: '*' }).first();
    assert.is(Number(held!.n), Number(all!.n));
  });

  test('GET /security/permissions lists every permission with its resource and ability, filterable', async () => {
    const tags = await app.client.get(`${API}/security/permissions?filter[resource]=inventories/tags&per_page=100`, { token: admin() });
    assert.is(tags.status, 200);
    assert.equal(
      tags.body.data.map((p: any) => [p.name, p.ability]),
      [
        ['view_any_inventory_tag', 'view_any'],
        ['view_inventory_tag', 'view'],
        ['create_inventory_tag', 'create'],
        ['update_inventory_tag', 'update'],
        ['delete_inventory_tag', 'delete'],
        ['restore_inventory_tag', 'restore'],
        ['force_delete_inventory_tag', 'force_delete'],
      ],
    );
    const uoms = await app.client.get(`${API}/security/permissions?filter[name]=u::o::m&per_page=100`, { token: admin() });
    assert.equal(
      uoms.body.data.map((p: any) => p.name),
      [
        'view_any_support_u::o::m::category',
        'view_support_u::o::m::category',
        'create_support_u::o::m::category',
        'update_support_u::o::m::category',
        'delete_support_u::o::m::category',
      ],
    );
    const rates = await app.client.get(`${API}/security/permissions?filter[resource]=support/currencies&per_page=100`, { token: admin() });
    assert.equal(
      rates.body.data.map((p: any) => p.ability),
      ['view_any', 'view', 'update', 'delete'],
      'currency rates need update and delete on their currency',
    );
    const unknown = await app.client.get(`${API}/security/permissions?filter[guard]=web`, { token: admin() });
    assert.is(unknown.status, 400);
  });

  test.run();
}
