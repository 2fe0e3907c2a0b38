import type { Hook } from '../../../engine/index.ts';
import { MANAGE_USERS } from '../../access/permissions.ts';
import { userPermissions } from '../../access/load-access.ts';
import { principal } from '../../access/principal.ts';
import { HttpError } from '../../../engine/index.ts';

/**
 * Refuses a change that leaves the caller unable to manage users when they could before: their
 * last role with update_security_user, that permission taken out of their role, or deactivating
 * themselves. Runs after the write, inside its transaction, so the refusal undoes it.
 */
export const keepOwnUserManagement: Hook = async ({ trx, user }) => {
  if (!principal(user).access.permissions.has(MANAGE_USERS)) return;
  const self = await trx('users').where('id', user.id).first('is_active', 'deleted_at');
  const stillActive = self && !self.deleted_at && Boolean(self.is_active);
  if (stillActive && (await userPermissions(trx, user.id)).has(MANAGE_USERS)) return;
  throw new HttpError(422, 'You cannot remove your own permission to manage users.');
};
