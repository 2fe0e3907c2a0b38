// The onRequest hook of every protected route: a valid, unexpired, unrevoked token of an active,
// existing user, or 401 {"message":"Unauthenticated."}. One query reads the user, the token's
// state and the access version; the user's permissions come from the per-process access cache.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import { nowTimestamp, UnauthenticatedError, type Statements } from '../../engine/index.ts';
import { AccessCache } from '../access/access-cache.ts';
import { loadAccess } from '../access/load-access.ts';
import type { Access, Principal } from '../access/principal.ts';
import { bearerToken, readToken, sameHash, tokenHash, type TokenClaims } from './tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    tokenClaims?: TokenClaims;
  }
}

/** last_used_at of an API token is written at most this often. */
const LAST_USED_EVERY_MS = 60_000;

// The user (active, not deleted), the token's state, and the access version, in one prepared query.
const USER = 'SELECT u.`id`, u.`name`, u.`email`, (SELECT `version` FROM `access_state` WHERE `id` = 1) AS `access_version`';
const ACTIVE = 'u.`id` = ? AND u.`deleted_at` IS NULL AND u.`is_active` = ?';
const LOGIN_TOKEN_SQL = `${USER}, r.\`jti\` AS \`revoked\` FROM \`users\` u LEFT JOIN \`revoked_tokens\` r ON r.\`jti\` = ? WHERE ${ACTIVE} LIMIT 1`;
const API_TOKEN_SQL = `${USER}, t.\`token_hash\`, t.\`abilities\`, t.\`last_used_at\` FROM \`users\` u INNER JOIN \`api_tokens\` t ON t.\`user_id\` = u.\`id\` WHERE t.\`id\` = ? AND ${ACTIVE} LIMIT 1`;

export function createAuthenticate(app: FastifyInstance, knex: Knex, statements: Statements) {
  const cache = new AccessCache();

  return async function authenticate(request: FastifyRequest): Promise<void> {
    const claims = request.tokenClaims ?? readTokenFromRequest(app, request);
    if (!claims) throw new UnauthenticatedError();
    const userId = Number(claims.sub);

    let access: Access;
    if (claims.tid === undefined) {
      const [row] = await statements.all(LOGIN_TOKEN_SQL, [claims.jti, userId, true]);
      if (!row || row.revoked) throw new UnauthenticatedError();
      access = await cache.get(`user:${userId}`, Number(row.access_version), () => loadAccess(knex, userId));
      const principal: Principal = { id: userId, name: row.name, email: row.email, access };
      request.authUser = principal;
    } else {
      const [row] = await statements.all(API_TOKEN_SQL, [claims.tid, userId, true]);
      if (!row || !sameHash(row.token_hash, tokenHash(bearerToken(request.headers.authorization)!))) throw new UnauthenticatedError();
      access = await cache.get(`token:${claims.tid}`, Number(row.access_version), async () => narrowed(await loadAccess(knex, userId), row.abilities));
      const principal: Principal = { id: userId, name: row.name, email: row.email, access, apiTokenId: claims.tid };
      request.authUser = principal;
      await touchApiToken(knex, claims.tid, row.last_used_at);
    }
    request.tokenClaims = claims;
  };
}

/** A token's effective permissions: its abilities that its user still holds. */
function narrowed(access: Access, abilities: string): Access {
  const allowed = new Set<string>(JSON.parse(abilities) as string[]);
  return { ...access, permissions: new Set([...access.permissions].filter((name) => allowed.has(name))) };
}

async function touchApiToken(knex: Knex, id: number, lastUsedAt: string | null): Promise<void> {
  const last = lastUsedAt ? Date.parse(`${lastUsedAt.replace(' ', 'T')}Z`) : 0;
  if (Date.now() - last < LAST_USED_EVERY_MS) return;
  await knex('api_tokens').where('id', id).update({ last_used_at: nowTimestamp() });
}

export function readTokenFromRequest(app: FastifyInstance, request: FastifyRequest): TokenClaims | undefined {
  const token = bearerToken(request.headers.authorization);
  return token ? readToken(app, token) : undefined;
}
