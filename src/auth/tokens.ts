// Bearer tokens: JWTs signed with @fastify/jwt, each with its own id (jti) so one can be revoked.
// Revocations live in the database, so every process that shares it refuses a revoked token.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import { nowTimestamp } from '../../engine/index.ts';

export interface TokenClaims {
  sub: string;
  jti: string;
  iat: number;
  exp: number;
}

export function issueToken(app: FastifyInstance, userId: number): string {
  return app.jwt.sign({ sub: String(userId), jti: randomUUID() });
}

/** Verifies signature and expiry; undefined for anything that is not a valid token of ours. */
export function readToken(app: FastifyInstance, token: string): TokenClaims | undefined {
  try {
    const claims = app.jwt.verify<TokenClaims>(token);
    if (typeof claims.sub !== 'string' || typeof claims.jti !== 'string') return undefined;
    return claims;
  } catch {
    return undefined;
  }
}

export async function revokeToken(knex: Knex, claims: TokenClaims): Promise<void> {
  const expiresAt = new Date(claims.exp * 1000).toISOString().slice(0, 23).replace('T', ' ');
  await knex('revoked_tokens').insert({ jti: claims.jti, user_id: Number(claims.sub), expires_at: expiresAt, revoked_at: nowTimestamp() }).onConflict('jti').ignore();
  // Expired tokens are refused by their signature anyway; their revocations can go.
  await knex('revoked_tokens').where('expires_at', '<', nowTimestamp()).delete();
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
