// POST /login and POST /logout, as the contract describes them.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import { HttpError, ValidationError } from '../../engine/index.ts';
import type { Config } from '../app/config.ts';
import { dummyHash, verifyPassword } from './passwords.ts';
import { loginLimiter } from './rate-limit.ts';
import { issueToken, revokeToken } from './tokens.ts';

export function registerAuthRoutes(app: FastifyInstance, knex: Knex, config: Config, authenticate: (request: FastifyRequest) => Promise<void>, prefix: string) {
  const limitLoginAttempts = loginLimiter(app, config);
  app.post(`${prefix}/login`, async (request, reply) => {
    await limitLoginAttempts(request);
    const { email, password } = validateLogin(request.body);
    // A deleted or deactivated user cannot log in, and learns no more than a wrong password tells.
    const user = await knex('users').whereRaw('LOWER(email) = ?', [email.toLowerCase()]).whereNull('deleted_at').where('is_active', true).first('id', 'name', 'email', 'password');
    const matches = await verifyPassword(password, user?.password ?? (await dummyHash()));
    if (!user || !matches) throw new HttpError(401, 'The provided credentials are incorrect.');
    return reply.send({
      message: 'Login successful',
      token: issueToken(app, Number(user.id)),
      token_type: 'Bearer',
      user: { id: Number(user.id), name: user.name, email: user.email },
    });
  });

  app.post(`${prefix}/logout`, { onRequest: authenticate }, async (request, reply) => {
    await revokeToken(knex, request.tokenClaims!);
    return reply.send({ message: 'Logout successful' });
  });
}

function validateLogin(body: unknown): { email: string; password: string } {
  const input = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const errors: Record<string, string[]> = {};
  const email = typeof input.email === 'string' ? input.email.trim() : input.email;
  if (email === undefined || email === null || email === '') errors.email = ['The email field is required.'];
  else if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(email)) errors.email = ['The email field must be a valid email address.'];
  const password = input.password;
  if (password === undefined || password === null || password === '') errors.password = ['The password field is required.'];
  else if (typeof password !== 'string') errors.password = ['The password field must be a string.'];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { email: email as string, password: password as string };
}
