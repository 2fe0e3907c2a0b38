// Bearer tokens: JWTs signed with @fastify/jwt, each with its own id (jti) so one can be revoked.
// Login tokens live `TOKEN_TTL` and are revoked by logout (a row in revoked_tokens). API tokens
// (`tid`: their row in api_tokens) live until their expiry or until that row is deleted.
// Both checks are in the database, so every process that shares it refuses a revoked token.
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import { inTransaction, nowTimestamp } from '../../engine/index.ts';
import { bumpTokenVersion } from '../access/access-version.ts';
import { BoundedMap } from './bounded-map.ts';

export interface TokenClaims {
  sub: string;
  jti: string;
  iat: number;
  exp: number;
  /** An API token's id. */
  tid?: number;
}

/** API tokens without an expiry date still carry `exp`: a hundred years out. */
const NEVER_SECONDS = 100 * 365 * 24 * 3600;

export function issueToken(app: FastifyInstance, userId: number): string {
  return app.jwt.sign({ sub: String(userId), jti: randomUUID() });
}

export function issueApiToken(app: FastifyInstance, userId: number, tokenId: number, expiresAt: Date | null): string {
  const expiresIn = expiresAt ? Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000)) : NEVER_SECONDS;
  return app.jwt.sign({ sub: String(userId), jti: randomUUID(), tid: tokenId }, { expiresIn });
}

/** What api_tokens stores instead of the token. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** Verifies signature and expiry; undefined for anything that is not a valid token of ours. */
export function readToken(app: FastifyInstance, token: string): TokenClaims | undefined {
  const verified = verifiedTokens(app);
  const known = verified.get(token);
  if (known) {
    if (known.exp * 1000 > Date.now()) return known;
    verified.delete(token);
    return undefined;
  }
  try {
    const claims = app.jwt.verify<TokenClaims>(token);
    if (typeof claims.sub !== 'string' || typeof claims.jti !== 'string' || typeof claims.exp !== 'number') return undefined;
    if (claims.tid !== undefined && !Number.isSafeInteger(claims.tid)) return undefined;
    verified.set(token, claims);
    return claims;
  } catch {
    return undefined;
  }
}

/**
 * Tokens whose signature this process has verified, with their claims until they expire: a
 * client sends the same token on every request, and checking its HMAC again each time was the
 * largest cost of a request outside the database. Only valid tokens are kept (the signing key
 * is needed to add one), at most MAX_VERIFIED_TOKENS, oldest out first. Revocation is not
 * decided here: the database check (authenticate.ts) runs on every request.
 */
const MAX_VERIFIED_TOKENS = 10_000;
const verifiedByApp = new WeakMap<FastifyInstance, BoundedMap<string, TokenClaims>>();

function verifiedTokens(app: FastifyInstance): BoundedMap<string, TokenClaims> {
  let verified = verifiedByApp.get(app);
  if (!verified) verifiedByApp.set(app, (verified = new BoundedMap(MAX_VERIFIED_TOKENS)));
  return verified;
}

export async function revokeToken(knex: Knex, claims: TokenClaims): Promise<void> {
  if (claims.tid !== undefined) {
    await deleteApiTokens(knex, { id: claims.tid, user_id: Number(claims.sub) });
    return;
  }
  const expiresAt = new Date(claims.exp * 1000).toISOString().slice(0, 23).replace('T', ' ');
  await inTransaction(knex, async (trx) => {
    await trx('revoked_tokens')
      .insert({ jti: claims.jti, user_id: Number(claims.sub), expires_at: expiresAt, revoked_at: nowTimestamp() })
      .onConflict('jti')
      .ignore();
    await bumpTokenVersion(trx);
  });
}

/**
 * Expired tokens are refused by their signature anyway: their revocations can go. Run by the
 * periodic clean-up (src/database/housekeeping.ts), not by each logout. Returns how many went.
 */
export async function deleteExpiredRevocations(knex: Knex): Promise<number> {
  return knex('revoked_tokens').where('expires_at', '<', nowTimestamp()).delete();
}

/** Deletes the API tokens matching `where`, and tells every process when there were any; returns how many. */
export async function deleteApiTokens(knex: Knex, where: { id: number; user_id: number }): Promise<number> {
  return inTransaction(knex, async (trx) => {
    const deleted = await trx('api_tokens').where(where).delete();
    if (deleted > 0) await bumpTokenVersion(trx);
    return deleted;
  });
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
