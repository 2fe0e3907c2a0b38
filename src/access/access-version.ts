// One counter for everything access depends on (roles, grants, users' scopes, team members,
// users' active state), one for revoked tokens. Every change bumps its counter in its own
// transaction; every process reads both on each request and drops what it cached when they moved.
// A change written to these tables outside the API must bump them too.
import type { Knex } from 'knex';

export async function bumpAccessVersion(knex: Knex | Knex.Transaction): Promise<void> {
  await knex('access_state').where('id', 1).increment('version', 1);
}

/**
 * A token was revoked: every process checks the tokens it keeps again (src/auth/authenticate.ts).
 * Users' permissions stay cached: they did not change.
 */
export async function bumpTokenVersion(knex: Knex | Knex.Transaction): Promise<void> {
  await knex('access_state').where('id', 1).increment('token_version', 1);
}
