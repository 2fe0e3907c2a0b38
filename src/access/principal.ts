// The authenticated user as the policy sees them: who they are, and what they may do.
import type { AuthUser } from '../../engine/index.ts';

export type ResourcePermission = 'global' | 'group' | 'individual';
export const RESOURCE_PERMISSIONS: readonly ResourcePermission[] = ['individual', 'group', 'global'];

export interface Access {
  /** Permission names: those of the user's roles, narrowed to an API token's abilities. */
  permissions: ReadonlySet<string>;
  /** Which owned records (a record's `user_id`) the user may change: all, their team's, or their own. */
  resourcePermission: ResourcePermission;
  /** The companies whose rows the user may see and write (the default one included). */
  companyIds: readonly number[];
  defaultCompanyId: number | null;
  /** Users who share a sales team with this one (the user included). */
  teamMateIds: ReadonlySet<number>;
}

export interface Principal extends AuthUser {
  access: Access;
  /** Set when the request came with an API token rather than a login token. */
  apiTokenId?: number;
}

/** The user the authentication hook set on the request always carries its access. */
export function principal(user: AuthUser): Principal {
  return user as Principal;
}
