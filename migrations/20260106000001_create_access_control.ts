// Access control: permissions (generated from the registry at every start), roles holding them,
// users holding roles, the companies a user may work in, sales team members (record scope
// "group"), long-lived API tokens, and the access version every process compares its cached
// permissions against.
import type { Knex } from 'knex';
import { foreignId, timestamps } from './helpers.ts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('permissions', (t) => {
    t.increments('id');
    // Shield-style names: view_any_inventory_tag, update_inventory_operation::type, ...
    t.string('name', 191).notNullable().unique('permissions_name_unique');
    t.string('resource', 191).nullable().index();
    t.string('ability', 64).notNullable().index();
    timestamps(t);
  });

  await knex.schema.createTable('roles', (t) => {
    t.increments('id');
    t.string('name', 191).notNullable().unique('roles_name_unique');
    timestamps(t);
  });

  await knex.schema.createTable('role_permissions', (t) => {
    foreignId(t, 'role_id', 'roles', 'CASCADE').notNullable();
    foreignId(t, 'permission_id', 'permissions', 'CASCADE').notNullable();
    t.primary(['role_id', 'permission_id']);
  });

  await knex.schema.createTable('user_roles', (t) => {
    foreignId(t, 'user_id', 'users', 'CASCADE').notNullable();
    foreignId(t, 'role_id', 'roles', 'CASCADE').notNullable();
    t.primary(['user_id', 'role_id']);
  });

  await knex.schema.createTable('user_companies', (t) => {
    foreignId(t, 'user_id', 'users', 'CASCADE').notNullable();
    foreignId(t, 'company_id', 'companies', 'CASCADE').notNullable();
    t.primary(['user_id', 'company_id']);
  });

  await knex.schema.alterTable('users', (t) => {
    // global: every record; group: own records and those of team mates; individual: own records.
    t.string('resource_permission', 20).notNullable().defaultTo('global');
    foreignId(t, 'default_company_id', 'companies', 'SET NULL').nullable();
    t.boolean('is_active').notNullable().defaultTo(true);
  });

  await knex.schema.createTable('sales_team_members', (t) => {
    foreignId(t, 'team_id', 'sales_teams', 'CASCADE').notNullable();
    foreignId(t, 'user_id', 'users', 'CASCADE').notNullable();
    t.primary(['team_id', 'user_id']);
  });

  await knex.schema.createTable('api_tokens', (t) => {
    t.increments('id');
    foreignId(t, 'user_id', 'users', 'CASCADE').notNullable();
    t.string('name', 255).notNullable();
    // The permission names the token may use (JSON); its user's current permissions still apply.
    t.text('abilities').notNullable();
    // SHA-256 of the token: the secret itself is shown once and never stored.
    t.string('token_hash', 64).notNullable();
    t.datetime('expires_at', { precision: 6 }).nullable();
    t.datetime('last_used_at', { precision: 6 }).nullable();
    timestamps(t);
  });

  // One row: bumped by every change to roles, grants, users' scopes or team members, so that each
  // process notices (in its authentication query) that its cached permissions are stale.
  await knex.schema.createTable('access_state', (t) => {
    t.integer('id').primary();
    t.integer('version').notNullable();
  });
  await knex('access_state').insert({ id: 1, version: 1 });

  // Before this migration every user could do everything: they keep that through the Admin role
  // (the seed gives the role every permission), and work in the companies that exist.
  const now = new Date().toISOString().slice(0, 23).replace('T', ' ');
  await knex('roles').insert({ name: 'Admin', created_at: now, updated_at: now });
  const admin = await knex('roles').where('name', 'Admin').first('id');
  const users = await knex('users').pluck('id');
  const companies = await knex('companies').orderBy('id').pluck('id');
  if (users.length > 0) await knex('user_roles').insert(users.map((id) => ({ user_id: id, role_id: admin.id })));
  if (users.length > 0 && companies.length > 0) {
    await knex('user_companies').insert(users.flatMap((user) => companies.map((company) => ({ user_id: user, company_id: company }))));
    await knex('users').update({ default_company_id: companies[0] });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['access_state', 'api_tokens', 'sales_team_members', 'user_companies', 'user_roles', 'role_permissions', 'roles', 'permissions']) {
    await knex.schema.dropTable(table);
  }
  await knex.schema.alterTable('users', (t) => {
    t.dropForeign(['default_company_id']);
    t.dropColumn('default_company_id');
    t.dropColumn('resource_permission');
    t.dropColumn('is_active');
  });
}
