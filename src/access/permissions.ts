// The permissions of the installation: what the registry's routes need, plus the app's own.
// Written to the `permissions` table at every start, so roles can name them and the Admin role
// holds each new one as soon as a resource is added.
import type { Knex } from 'knex';
import { nowTimestamp, permissionCatalogue, type PermissionEntry, type Registry } from '../../engine/index.ts';
import { bumpAccessVersion } from './access-version.ts';

/** Lifts the company scope: the user sees and writes the rows of every company. */
export const BYPASS_COMPANY_SCOPE = 'bypass_company_scope';
/** Lifts the record scope on reads (`visibleTo`): the user sees the projects and tasks of everyone. */
export const BYPASS_OWNERSHIP_SCOPE = 'bypass_ownership_scope';
/** The permission that manages users; nobody may take it away from themselves. */
export const MANAGE_USERS = 'update_security_user';
export const ADMIN_ROLE = 'Admin';

export function allPermissions(registry: Registry): PermissionEntry[] {
  return [
    ...permissionCatalogue(registry.all()),
    { name: BYPASS_COMPANY_SCOPE, resource: null, ability: BYPASS_COMPANY_SCOPE },
    { name: BYPASS_OWNERSHIP_SCOPE, resource: null, ability: BYPASS_OWNERSHIP_SCOPE },
  ];
}

/** Adds the missing permissions, gives the Admin role every permission; returns how many permissions were added. */
export async function syncPermissions(knex: Knex, registry: Registry): Promise<number> {
  const wanted = allPermissions(registry);
  const now = nowTimestamp();
  const existing = new Set<string>(await knex('permissions').pluck('name'));
  const missing = wanted.filter((entry) => !existing.has(entry.name));
  // Several processes may start at once: a name another one just added is skipped.
  for (let i = 0; i < missing.length; i += 200) {
    const rows = missing.slice(i, i + 200).map((entry) => ({ ...entry, created_at: now, updated_at: now }));
    await knex('permissions').insert(rows).onConflict('name').ignore();
  }
  // Inserted only when missing: an ignored insert would still use up an id on both databases.
  if (!(await knex('roles').where('name', ADMIN_ROLE).first('id'))) {
    await knex('roles').insert({ name: ADMIN_ROLE, created_at: now, updated_at: now }).onConflict('name').ignore();
  }
  const admin = await knex('roles').where('name', ADMIN_ROLE).first('id');
  const granted = await knex('permissions').whereNotIn('id', knex('role_permissions').select('permission_id').where('role_id', admin.id)).pluck('id');
  if (granted.length > 0) {
    for (let i = 0; i < granted.length; i += 200) {
      const rows = granted.slice(i, i + 200).map((id: number) => ({ role_id: admin.id, permission_id: id }));
      await knex('role_permissions').insert(rows).onConflict(['role_id', 'permission_id']).ignore();
    }
  }
  if (missing.length > 0 || granted.length > 0) await bumpAccessVersion(knex);
  return missing.length;
}
