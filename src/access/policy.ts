// The authorization point every generated route passes (the engine asks it; see
// engine/contract/index.ts for when). It follows the original's model (reference §1.8):
// - a route needs the permissions its definition names (view_any_inventory_tag, ...);
// - changing an owned record (update, delete, restore, force delete) also needs the user's record
//   scope: `global` any record, `group` their own and their sales team mates', `individual` their own;
// - company-scoped resources show and accept only rows of the user's companies (and rows without
//   one), unless the user holds bypass_company_scope; create fills the default company;
// - resources whose definition says `visibleTo` (projects, tasks) show a user whose record scope is
//   not global only the records that name them (group: them or a team mate), unless the user holds
//   bypass_ownership_scope; the others answer 404.
import type { AccessCheck, AuthUser, FieldErrors, Policy, ResourceDef, RowScope } from '../../engine/index.ts';
import { BYPASS_COMPANY_SCOPE, BYPASS_OWNERSHIP_SCOPE } from './permissions.ts';
import { principal, type Access } from './principal.ts';

export const policy: Policy = {
  authorize(user: AuthUser, { def, operation, permissions, record, owners }: AccessCheck): boolean {
    const { access } = principal(user);
    if (!permissions.every((name) => access.permissions.has(name))) return false;
    const changes = operation !== 'list' && operation !== 'show';
    if (changes && record && def.access.owner) return mayChange(access, user.id, owners ?? []);
    return true;
  },

  rowScope(user: AuthUser, def: ResourceDef): RowScope | undefined {
    const scope = def.access.companyScope;
    const { access } = principal(user);
    const company = scope && !access.permissions.has(BYPASS_COMPANY_SCOPE) ? { column: scope.column, values: access.companyIds, orNull: true } : undefined;
    const visibleTo = def.access.visibleTo && !access.permissions.has(BYPASS_OWNERSHIP_SCOPE) ? readers(access, user.id) : undefined;
    return company || visibleTo ? { company, visibleTo } : undefined;
  },

  checkValues(user: AuthUser, def: ResourceDef, values: Record<string, unknown>, mode: 'create' | 'update'): FieldErrors | undefined {
    const scope = def.access.companyScope;
    if (!scope || !def.fields.get(scope.column)?.writable) return undefined;
    const { access } = principal(user);
    if (mode === 'create' && scope.assign && values[scope.column] === undefined && access.defaultCompanyId !== null) {
      values[scope.column] = access.defaultCompanyId;
    }
    const company = values[scope.column];
    if (company === undefined || company === null || access.permissions.has(BYPASS_COMPANY_SCOPE)) return undefined;
    if (access.companyIds.includes(Number(company))) return undefined;
    return { [scope.column]: ['The selected company id is not one of your companies.'] };
  },

  defaultCompany(user: AuthUser): number | null {
    return principal(user).access.defaultCompanyId;
  },
};

/** Whose records a user reads where records are visible to the people they name: all (undefined), their team's, or their own. */
function readers(access: Access, userId: number): readonly number[] | undefined {
  if (access.resourcePermission === 'global') return undefined;
  if (access.resourcePermission === 'group') return [...new Set([userId, ...access.teamMateIds])];
  return [userId];
}

/**
 * The record scope of §1.8 (`hasAccess`): a record without an owner is only for `global` users; of
 * a record with several owners (a task's assignees) one is enough.
 */
function mayChange(access: Access, userId: number, owners: readonly number[]): boolean {
  if (access.resourcePermission === 'global') return true;
  if (access.resourcePermission === 'group') return owners.some((owner) => access.teamMateIds.has(owner));
  return owners.includes(userId);
}
