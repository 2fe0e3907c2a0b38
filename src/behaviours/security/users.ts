import { ForbiddenError, HttpError, type Hook, type HookContext } from '../../../engine/index.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { userPermissions } from '../../access/load-access.ts';
import { BYPASS_COMPANY_SCOPE } from '../../access/permissions.ts';
import { principal, RESOURCE_PERMISSIONS, type ResourcePermission } from '../../access/principal.ts';

/** E-mails are stored in lower case (logins compare without case); passwords only as bcrypt hashes. */
export const prepareUser: Hook = async ({ values }) => {
  if (typeof values.email === 'string') values.email = values.email.toLowerCase();
  if (typeof values.password === 'string') values.password = await hashPassword(values.password);
};

/**
 * No privilege escalation through users (403): the roles given must hold only permissions the
 * caller holds, the companies must be the caller's, the record scope no wider than the caller's;
 * and a user who holds what the caller does not cannot be changed by them at all (a new password
 * would hand the caller that user's rights).
 */
export const guardUserGrants: Hook = async (context) => {
  const { trx, values, record } = context;
  const caller = principal(context.user);
  if (record && Number(record.id) !== caller.id) await assertHoldsEverything(context, Number(record.id));

  const roles = values.roles as number[] | undefined;
  if (roles && roles.length > 0) {
    const names: string[] = await trx('role_permissions')
      .join('permissions', 'permissions.id', 'role_permissions.permission_id')
      .whereIn('role_permissions.role_id', roles)
      .distinct()
      .pluck('permissions.name');
    if (!names.every((name) => caller.access.permissions.has(name))) throw new ForbiddenError();
  }

  if (!caller.access.permissions.has(BYPASS_COMPANY_SCOPE)) {
    const companies = [...((values.allowed_companies as number[] | undefined) ?? []), values.default_company_id].filter((id) => id !== undefined && id !== null);
    if (!companies.every((id) => caller.access.companyIds.includes(Number(id)))) throw new ForbiddenError();
  }

  const scope = values.resource_permission as ResourcePermission | undefined;
  if (scope && RESOURCE_PERMISSIONS.indexOf(scope) > RESOURCE_PERMISSIONS.indexOf(caller.access.resourcePermission)) throw new ForbiddenError();
};

/** Deleting a user: not oneself (422), and not someone who holds more than the caller (403). */
export const guardUserDelete: Hook = async (context) => {
  const target = Number(context.record!.id);
  if (target === context.user.id) throw new HttpError(422, 'You cannot delete your own user.');
  await assertHoldsEverything(context, target);
};

async function assertHoldsEverything({ trx, user }: HookContext, targetId: number): Promise<void> {
  const held = principal(user).access.permissions;
  const theirs = await userPermissions(trx, targetId);
  for (const name of theirs) if (!held.has(name)) throw new ForbiddenError();
}
