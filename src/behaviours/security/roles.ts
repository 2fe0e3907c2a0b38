import { ForbiddenError, HttpError, ValidationError, type Hook } from '../../../engine/index.ts';
import { ADMIN_ROLE } from '../../access/permissions.ts';
import { principal } from '../../access/principal.ts';

/** Nobody puts into a role a permission they do not hold themselves (403). Only what is added counts. */
export const guardRoleGrants: Hook = async ({ trx, user, values, record }) => {
  const ids = values.permissions as number[] | undefined;
  if (!ids || ids.length === 0) return;
  const current = record ? new Set((await trx('role_permissions').where('role_id', record.id).pluck('permission_id')).map(Number)) : new Set<number>();
  const added = ids.filter((id) => !current.has(id));
  if (added.length === 0) return;
  const names: string[] = await trx('permissions').whereIn('id', added).pluck('name');
  const held = principal(user).access.permissions;
  if (!names.every((name) => held.has(name))) throw new ForbiddenError();
};

/** The Admin role keeps its name and every permission (each start grants it new ones), and cannot go. */
export const protectAdminRole: Hook = ({ values, record }) => {
  if (record?.name !== ADMIN_ROLE) return;
  // Before delete there are no values: the hook is asked to let the role go.
  if (Object.keys(values).length === 0) throw new HttpError(409, 'The Admin role cannot be deleted.');
  const errors: Record<string, string[]> = {};
  if (values.name !== undefined && values.name !== ADMIN_ROLE) errors.name = ['The Admin role cannot be renamed.'];
  if (values.permissions !== undefined) errors.permissions = ['The Admin role always holds every permission.'];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
};

/** Before a role is deleted: its users and permissions let go of it (so later checks see the result). */
export const detachRole: Hook = async ({ trx, record, records }) => {
  // The users' access changes with the links (no column of theirs): the feed shows them changed.
  records('security/users').changed((await trx('user_roles').where('role_id', record!.id).pluck('user_id')).map(Number));
  // The links of the role's own relations (its users, its permissions), gone with it.
  await trx('user_roles').where('role_id', record!.id).delete();
  await trx('role_permissions').where('role_id', record!.id).delete();
};
