// The onRequest hook of every protected route: a valid, unexpired, unrevoked token of an
// existing user, or 401 {"message":"Unauthenticated."}.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import { UnauthenticatedError } from '../../engine/index.ts';
import { bearerToken, readToken, type TokenClaims } from './tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    tokenClaims?: TokenClaims;
  }
}

export function createAuthenticate(app: FastifyInstance, knex: Knex) {
  return async function authenticate(request: FastifyRequest): Promise<void> {
    const claims = request.tokenClaims ?? readTokenFromRequest(app, request);
    if (!claims) throw new UnauthenticatedError();
    // One query: the user, and whether this token was revoked.
    const row = await knex('users')
      .leftJoin('revoked_tokens', 'revoked_tokens.jti', knex.raw('?', [claims.jti]))
      .where('users.id', Number(claims.sub))
      .whereNull('users.deleted_at')
      .first('users.id', 'users.name', 'users.email', 'revoked_tokens.jti as revoked');
    if (!row || row.revoked) throw new UnauthenticatedError();
    request.tokenClaims = claims;
    request.authUser = { id: Number(row.id), name: row.name, email: row.email };
  };
}

export function readTokenFromRequest(app: FastifyInstance, request: FastifyRequest): TokenClaims | undefined {
  const token = bearerToken(request.headers.authorization);
  return token ? readToken(app, token) : undefined;
}
