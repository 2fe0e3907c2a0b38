import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { nowTimestamp } from '../../engine/index.ts';
import { hashPassword } from '../auth/passwords.ts';

export interface CreatedUser {
  id: number;
  email: string;
  /** Set when the password was generated, so it can be shown once. */
  generatedPassword?: string;
}

export class UserExistsError extends Error {}

export async function createUser(knex: Knex, input: { email: string; name: string; password?: string }): Promise<CreatedUser> {
  const email = input.email.trim().toLowerCase();
  if (await knex('users').whereRaw('LOWER(email) = ?', [email]).first('id')) throw new UserExistsError(`A user with the e-mail ${email} already exists.`);
  const generatedPassword = input.password ? undefined : randomBytes(12).toString('base64url');
  const now = nowTimestamp();
  const [id] = await knex('users').insert({
    name: input.name,
    email,
    password: await hashPassword(input.password ?? generatedPassword!),
    created_at: now,
    updated_at: now,
  });
  return { id: Number(id), email, generatedPassword };
}

/** The administrator of a fresh installation; nothing when that e-mail already has a user. */
export async function seedAdmin(knex: Knex, admin: { email: string; name: string; password?: string }): Promise<CreatedUser | undefined> {
  const existing = await knex('users').whereRaw('LOWER(email) = ?', [admin.email.toLowerCase()]).first('id');
  if (existing) return undefined;
  return createUser(knex, admin);
}
