// What a user may do, read from the database: the permissions of their roles, their companies,
// their record scope and their sales team mates. Run only when the access cache misses.
import type { Knex } from 'knex';
import type { Access, ResourcePermission } from './principal.ts';

export async function loadAccess(knex: Knex | Knex.Transaction, userId: number): Promise<Access> {
  const [permissions, user, companies, teamMates] = await Promise.all([
    userPermissions(knex, userId),
    knex('users').where('id', userId).first('resource_permission', 'default_company_id'),
    knex('user_companies').where('user_id', userId).pluck('company_id'),
    teamMateIds(knex, userId),
  ]);
  const defaultCompanyId = user?.default_company_id == null ? null : Number(user.default_company_id);
  const companyIds = new Set<number>(companies.map(Number));
  if (defaultCompanyId !== null) companyIds.add(defaultCompanyId);
  return {
    permissions,
    resourcePermission: (user?.resource_permission ?? 'individual') as ResourcePermission,
    companyIds: [...companyIds],
    defaultCompanyId,
    teamMateIds: teamMates,
  };
}

export async function userPermissions(knex: Knex | Knex.Transaction, userId: number): Promise<Set<string>> {
  const names = await knex('user_roles')
    .join('role_permissions', 'role_permissions.role_id', 'user_roles.role_id')
    .join('permissions', 'permissions.id', 'role_permissions.permission_id')
    .where('user_roles.user_id', userId)
    .distinct()
    .pluck('permissions.name');
  return new Set(names);
}

/** Members and leaders of the live sales teams the user leads or belongs to. */
async function teamMateIds(knex: Knex | Knex.Transaction, userId: number): Promise<Set<number>> {
  const teams = knex('sales_teams')
    .whereNull('deleted_at')
    .where((query) => query.where('user_id', userId).orWhereIn('id', knex('sales_team_members').select('team_id').where('user_id', userId)))
    .select('id');
  const [members, leaders] = await Promise.all([
    knex('sales_team_members').whereIn('team_id', teams.clone()).pluck('user_id'),
    knex('sales_teams').whereIn('id', teams.clone()).whereNotNull('user_id').pluck('user_id'),
  ]);
  return new Set([userId, ...members.map(Number), ...leaders.map(Number)]);
}
