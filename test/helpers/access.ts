// Users with exactly the permissions a test wants, written straight to the database (a role of
// their own, every company, record scope as asked), and a login token for each. Users are kept
// per permission set, so suites that ask for the same set share one.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { storedWords } from '../../engine/definition/search-words.ts';
import { keepWords } from '../../engine/sql/search-index.ts';
import { bumpAccessVersion } from '../../src/access/access-version.ts';
import { issueToken } from '../../src/auth/tokens.ts';
import type { TestApp } from './app.ts';

/** A bcrypt hash nobody knows the password of: these users never log in, they get tokens. */
const NO_PASSWORD = '$2b$10$CwTycUXWue0Thq9StjUM0uJ8.vN8dFHnZL1o0wz0hQJQJ3xJH2x8u';

export interface Grant {
  /** Exactly these permissions... */
  only?: readonly string[];
  /** ...or every permission but these. */
  allBut?: readonly string[];
  resourcePermission?: 'global' | 'group' | 'individual';
  /** Company ids the user works in (default: all); the first is the default company. */
  companies?: readonly number[];
  /** Tells apart users with the same grant (two members of a team). */
  name?: string;
}

const tokens = new WeakMap<TestApp, Map<string, Promise<{ id: number; token: string }>>>();

/** A token of a user holding what `grant` says. */
export async function userWith(app: TestApp, grant: Grant): Promise<{ id: number; token: string }> {
  const key = JSON.stringify(grant);
  let byGrant = tokens.get(app);
  if (!byGrant) tokens.set(app, (byGrant = new Map()));
  if (!byGrant.has(key)) byGrant.set(key, createUser(app, grant));
  return byGrant.get(key)!;
}

async function createUser(app: TestApp, grant: Grant): Promise<{ id: number; token: string }> {
  const { knex } = app;
  const name = `test ${randomUUID()}`;
  const companies = grant.companies ?? (await knex('companies').orderBy('id').pluck('id')).map(Number);
  const userId = await knex.transaction(async (trx) => {
    const now = '2025-01-31 09:30:00.000000';
    // Written as the API writes them, with the words a search finds them by.
    const roleWords = storedWords([name]);
    const [roleId] = await trx('roles').insert({ name, search_words: roleWords, created_at: now, updated_at: now });
    await keepWords(trx, 'roles', [{ id: Number(roleId), words: roleWords }], { fresh: true });
    await grantPermissions(trx, Number(roleId), grant);
    const email = `${name.replace(/\s/g, '-')}@example.com`;
    const userWords = storedWords([email, name]);
    const [id] = await trx('users').insert({
      name,
      email,
      search_words: userWords,
      password: NO_PASSWORD,
      resource_permission: grant.resourcePermission ?? 'global',
      default_company_id: companies[0] ?? null,
      created_at: now,
      updated_at: now,
    });
    await keepWords(trx, 'users', [{ id: Number(id), words: userWords }], { fresh: true });
    await trx('user_roles').insert({ user_id: id, role_id: roleId });
    if (companies.length > 0) await trx('user_companies').insert(companies.map((company) => ({ user_id: id, company_id: company })));
    await bumpAccessVersion(trx);
    return Number(id);
  });
  return { id: userId, token: issueToken(app.app, userId) };
}

/** One INSERT ... SELECT, however many permissions: the role gets `only`, or all but `allBut`. */
async function grantPermissions(trx: Knex.Transaction, roleId: number, grant: Grant): Promise<void> {
  const chosen = trx('permissions').select(trx.raw('? as role_id', [roleId]), 'id as permission_id');
  if (grant.only) chosen.whereIn('name', grant.only as string[]);
  else chosen.whereNotIn('name', (grant.allBut ?? []) as string[]);
  await trx.into(trx.raw('?? (??, ??)', ['role_permissions', 'role_id', 'permission_id'])).insert(chosen);
}
