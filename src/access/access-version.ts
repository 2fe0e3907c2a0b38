// One counter for everything access depends on (roles, grants, users' scopes, team members).
// Every change bumps it in its own transaction; every process reads it in its authentication
// query and drops its cached permissions when it moved.
import type { Knex } from 'knex';

export async function bumpAccessVersion(knex: Knex | Knex.Transaction): Promise<void> {
  await knex('access_state').where('id', 1).increment('version', 1);
}
