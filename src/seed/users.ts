import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { nowTimestamp } from '../../engine/index.ts';
import { bumpAccessVersion } from '../access/access-version.ts';
import { ADMIN_ROLE } from '../access/permissions.ts';
import { hashPassword } from '../auth/passwords.ts';

export interface CreatedUser {
  id: number;
  email: string;
  roles: string[];
  /** Set when the password was generated, so it can be shown once. */
  generatedPassword?: string;
}

export class UserExistsError extends Error {}
export class UnknownRoleError extends Error {}

export interface NewUser {
  email: string;
  name: string;
  password?: string;
  /** Role names; the first user of an installation gets Admin when none is given. */
  roles?: string[];
}

export async function createUser(knex: Knex, input: NewUser): Promise<CreatedUser> {
  const email = input.email.trim().toLowerCase();
  return knex.transaction(async (trx) => {
    if (await trx('users').whereRaw('LOWER(email) = ?', [email]).first('id')) throw new UserExistsError(`A user with the e-mail ${email} already exists.`);
    const first = !(await trx('users').first('id'));
    const roleNames = input.roles ?? (first ? [ADMIN_ROLE] : []);
    const roles = roleNames.length > 0 ? await trx('roles').whereIn('name', roleNames).select('id', 'name') : [];
    const unknown = roleNames.filter((name) => !roles.some((role: { name: string }) => role.name === name));
    if (unknown.length > 0) throw new UnknownRoleError(`No role is named ${unknown.map((name) => `"${name}"`).join(', ')} (npm run erp -- role:list shows them).`);

    const generatedPassword = input.password ? undefined : randomBytes(12).toString('base64url');
    const now = nowTimestamp();
    const [id] = await trx('users').insert({
      name: input.name,
      email,
      password: await hashPassword(input.password ?? generatedPassword!),
      created_at: now,
      updated_at: now,
    });
    const userId = Number(id);
    if (roles.length > 0) await trx('user_roles').insert(roles.map((role: { id: number }) => ({ user_id: userId, role_id: role.id })));
    await assignDefaultCompany(trx, userId);
    await bumpAccessVersion(trx);
    return { id: userId, email, roles: roles.map((role: { name: string }) => role.name), generatedPassword };
  });
}

/** A user works in the first company unless told otherwise (nothing before a company exists). */
export async function assignDefaultCompany(knex: Knex | Knex.Transaction, userId: number): Promise<void> {
  const company = await knex('companies').orderBy('id').first('id');
  if (!company) return;
  await knex('users').where('id', userId).whereNull('default_company_id').update({ default_company_id: company.id });
  await knex('user_companies').insert({ user_id: userId, company_id: company.id }).onConflict(['user_id', 'company_id']).ignore();
}

/** The administrator of a fresh installation; nothing when that e-mail already has a user. */
export async function seedAdmin(knex: Knex, admin: { email: string; name: string; password?: string }): Promise<CreatedUser | undefined> {
  const existing = await knex('users').whereRaw('LOWER(email) = ?', [admin.email.toLowerCase()]).first('id');
  if (existing) return undefined;
  return createUser(knex, { ...admin, roles: [ADMIN_ROLE] });
}
