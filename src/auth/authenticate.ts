// The onRequest hooks of protected routes: a valid, unexpired, unrevoked token of an active,
// existing user, or 401 {"message":"Unauthenticated."}. One query reads the user, the token's
// state and the access version; the user's permissions come from the per-process access cache.
// Routes whose first read is one row (engine/routes/pending-authentication.ts) send that query
// with their read instead, when the token's user was seen before: one round trip less.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import {
  AUTH_COLUMN_PREFIX,
  checkAlone,
  nowTimestamp,
  UnauthenticatedError,
  type AuthenticationCheck,
  type PendingAuthentication,
  type Row,
  type Statements,
} from '../../engine/index.ts';
import { AccessCache } from '../access/access-cache.ts';
import { loadAccess } from '../access/load-access.ts';
import type { Access, Principal } from '../access/principal.ts';
import { bearerToken, readToken, sameHash, tokenHash, type TokenClaims } from './tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    tokenClaims?: TokenClaims;
  }
}

export type AuthenticateHook = (request: FastifyRequest) => Promise<void>;

/** last_used_at of an API token is written at most this often. */
const LAST_USED_EVERY_MS = 60_000;

// The user (active, not deleted), the token's state, and the access version, in one prepared
// query; its columns are prefixed so that it can share a row with a record, and it comes in parts
// so that a first read can join it (engine/routes/pending-authentication.ts).
const column = (sql: string, name: string) => `${sql} AS \`${AUTH_COLUMN_PREFIX}${name}\``;
const USER = [column('u.`name`', 'name'), column('u.`email`', 'email'), column('(SELECT `version` FROM `access_state` WHERE `id` = 1)', 'access_version')].join(', ');
const ACTIVE = 'u.`id` = ? AND u.`deleted_at` IS NULL AND u.`is_active` = ?';
const LOGIN_TOKEN = { columns: `${USER}, ${column('r.`jti`', 'revoked')}`, from: '`users` u LEFT JOIN `revoked_tokens` r ON r.`jti` = ?' };
const API_TOKEN = {
  columns: `${USER}, ${[column('t.`token_hash`', 'token_hash'), column('t.`abilities`', 'abilities'), column('t.`last_used_at`', 'last_used_at')].join(', ')}`,
  from: '`users` u INNER JOIN `api_tokens` t ON t.`user_id` = u.`id`',
};
const field = (row: Row, name: string) => row[`${AUTH_COLUMN_PREFIX}${name}`];

export interface Authentication {
  /** Checks the token before the handler runs. */
  authenticate: AuthenticateHook;
  /** Leaves the check to the route's first read when the token's user is known (else checks at once). */
  authenticateWithFirstRead: AuthenticateHook;
}

export function createAuthentication(app: FastifyInstance, knex: Knex, statements: Statements): Authentication {
  const cache = new AccessCache();
  const cacheKey = (claims: TokenClaims) => (claims.tid === undefined ? `user:${claims.sub}` : `token:${claims.tid}`);

  const checkOf = (claims: TokenClaims): AuthenticationCheck =>
    claims.tid === undefined
      ? { columns: LOGIN_TOKEN.columns, from: { sql: LOGIN_TOKEN.from, params: [claims.jti] }, where: { sql: ACTIVE, params: [Number(claims.sub), true] } }
      : { columns: API_TOKEN.columns, from: { sql: API_TOKEN.from, params: [] }, where: { sql: `t.\`id\` = ? AND ${ACTIVE}`, params: [claims.tid, Number(claims.sub), true] } };

  /** Sets the request's user from the check's row (none: 401); returns their access. */
  async function settle(request: FastifyRequest, claims: TokenClaims, row: Row | undefined): Promise<Access> {
    const userId = Number(claims.sub);
    if (!row) throw new UnauthenticatedError();
    const version = Number(field(row, 'access_version'));
    let access: Access;
    if (claims.tid === undefined) {
      if (field(row, 'revoked') !== null) throw new UnauthenticatedError();
      access = await cache.get(cacheKey(claims), version, () => loadAccess(knex, userId));
    } else {
      if (!sameHash(field(row, 'token_hash'), tokenHash(bearerToken(request.headers.authorization)!))) throw new UnauthenticatedError();
      access = await cache.get(cacheKey(claims), version, async () => narrowed(await loadAccess(knex, userId), field(row, 'abilities')));
      await touchApiToken(knex, claims.tid, field(row, 'last_used_at'));
    }
    const principal: Principal = { id: userId, name: field(row, 'name'), email: field(row, 'email'), access, apiTokenId: claims.tid };
    request.authUser = principal;
    request.tokenClaims = claims;
    return access;
  }

  /** The token's claims (signature and expiry checked), or 401. */
  function claimsOf(request: FastifyRequest): TokenClaims {
    const claims = request.tokenClaims ?? readTokenFromRequest(app, request);
    if (!claims) throw new UnauthenticatedError();
    return claims;
  }

  /** The check on its own, then settled. */
  async function checkNow(request: FastifyRequest, claims: TokenClaims): Promise<void> {
    const [row] = await statements.all(...checkAlone(checkOf(claims)));
    await settle(request, claims, row);
  }

  async function authenticate(request: FastifyRequest): Promise<void> {
    await checkNow(request, claimsOf(request));
  }

  async function authenticateWithFirstRead(request: FastifyRequest): Promise<void> {
    const claims = claimsOf(request);
    const known = cache.peek(cacheKey(claims));
    // An Idempotency-Key is looked up per user before the handler runs (src/idempotency.ts).
    if (!known || request.headers['idempotency-key'] !== undefined) return checkNow(request, claims);
    request.pendingAuthentication = {
      guess: { id: Number(claims.sub), name: '', email: '', access: known } as Principal,
      check: checkOf(claims),
      settle: async (request, row) => (await settle(request, claims, row)) === known,
      run: (request) => checkNow(request, claims),
    } satisfies PendingAuthentication;
  }

  return { authenticate, authenticateWithFirstRead };
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
