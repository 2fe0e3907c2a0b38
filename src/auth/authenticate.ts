// The onRequest hooks of protected routes: a valid, unexpired, unrevoked token of an active,
// existing user, or 401 {"message":"Unauthenticated."}. The first time a process meets a token,
// one query reads the user, the token's state and the two counters of access_state (access and
// token versions, src/access/access-version.ts); the user's permissions come from the
// per-process access cache. The process then keeps the token as checked, and each later request
// reads only the two counters: every change that could refuse a token (a logout, an API token
// deleted, a user deactivated or deleted, roles and scopes) moves one of them, and a moved
// counter means the full check again. Routes whose first read is one row
// (engine/sql/pending-authentication.ts) send the check with their read: one round trip.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import {
  AUTH_COLUMN_PREFIX,
  checkAlone,
  nowTimestamp,
  OPENS_REQUEST,
  retryConflicts,
  UnauthenticatedError,
  type AuthenticationCheck,
  type PendingAuthentication,
  type Row,
  type StatementOptions,
  type Statements,
} from '../../engine/index.ts';
import { AccessCache } from '../access/access-cache.ts';
import { loadAccess } from '../access/load-access.ts';
import type { Access, Principal } from '../access/principal.ts';
import { BoundedMap } from './bounded-map.ts';
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
// so that a first read can join it (engine/sql/pending-authentication.ts).
const column = (sql: string, name: string) => `${sql} AS \`${AUTH_COLUMN_PREFIX}${name}\``;
const USER = [
  column('u.`name`', 'name'),
  column('u.`email`', 'email'),
  column('(SELECT `version` FROM `access_state` WHERE `id` = 1)', 'access_version'),
  column('(SELECT `token_version` FROM `access_state` WHERE `id` = 1)', 'token_version'),
].join(', ');
const ACTIVE = 'u.`id` = ? AND u.`deleted_at` IS NULL AND u.`is_active` = ?';
const LOGIN_TOKEN = { columns: `${USER}, ${column('r.`jti`', 'revoked')}`, from: '`users` u LEFT JOIN `revoked_tokens` r ON r.`jti` = ?' };
const API_TOKEN = {
  columns: `${USER}, ${[column('t.`token_hash`', 'token_hash'), column('t.`abilities`', 'abilities'), column('t.`last_used_at`', 'last_used_at')].join(', ')}`,
  from: '`users` u INNER JOIN `api_tokens` t ON t.`user_id` = u.`id`',
};
const field = (row: Row, name: string) => row[`${AUTH_COLUMN_PREFIX}${name}`];
// The two the check of every request reads, named once rather than a new string per request.
const ACCESS_VERSION = `${AUTH_COLUMN_PREFIX}access_version`;
const TOKEN_VERSION = `${AUTH_COLUMN_PREFIX}token_version`;
/** The check of a token this process has checked in full: have the counters moved since? */
const COUNTERS: AuthenticationCheck = {
  columns: [column('a.`version`', 'access_version'), column('a.`token_version`', 'token_version')].join(', '),
  from: { sql: '`access_state` a', params: [] },
  where: { sql: 'a.`id` = 1', params: [] },
};
/** The counters read on their own (a route without a first read to join): SQL written once. */
const [COUNTERS_SQL, COUNTERS_PARAMS] = checkAlone(COUNTERS);

/** A token checked in full, as it was then: it stands while both counters stay where they were. */
interface CheckedToken {
  principal: Principal;
  accessVersion: number;
  tokenVersion: number;
  /** An API token's last_used_at as this process last saw or wrote it (ms). */
  lastUsedAt: number;
}

/** Tokens kept per process; past this many the oldest goes. */
const MAX_CHECKED_TOKENS = 10_000;

export interface Authentication {
  /** Checks the token before the handler runs. */
  authenticate: AuthenticateHook;
  /** Leaves the check to the route's first read when the token's user is known (else checks at once). */
  authenticateWithFirstRead: AuthenticateHook;
}

export function createAuthentication(app: FastifyInstance, knex: Knex, statements: Statements): Authentication {
  const cache = new AccessCache();
  const cacheKey = (claims: TokenClaims) => (claims.tid === undefined ? `user:${claims.sub}` : `token:${claims.tid}`);
  const checkedTokens = new BoundedMap<string, CheckedToken>(MAX_CHECKED_TOKENS);

  const checkOf = (claims: TokenClaims): AuthenticationCheck =>
    claims.tid === undefined
      ? { columns: LOGIN_TOKEN.columns, from: { sql: LOGIN_TOKEN.from, params: [claims.jti] }, where: { sql: ACTIVE, params: [Number(claims.sub), true] } }
      : { columns: API_TOKEN.columns, from: { sql: API_TOKEN.from, params: [] }, where: { sql: `t.\`id\` = ? AND ${ACTIVE}`, params: [claims.tid, Number(claims.sub), true] } };

  /** Sets the request's user from the full check's row (none: 401) and keeps the token as checked. */
  async function settle(request: FastifyRequest, claims: TokenClaims, row: Row | undefined): Promise<void> {
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
    }
    const principal: Principal = { id: userId, name: field(row, 'name'), email: field(row, 'email'), access, apiTokenId: claims.tid };
    const checked = { principal, accessVersion: version, tokenVersion: Number(field(row, 'token_version')), lastUsedAt: lastUsed(field(row, 'last_used_at')) };
    checkedTokens.set(claims.jti, checked);
    await accept(request, claims, checked);
  }

  /** Sets the request's user from a checked token; an API token's last use is written once a minute at most. */
  async function accept(request: FastifyRequest, claims: TokenClaims, checked: CheckedToken): Promise<void> {
    request.authUser = checked.principal;
    request.tokenClaims = claims;
    if (claims.tid !== undefined && Date.now() - checked.lastUsedAt >= LAST_USED_EVERY_MS) {
      checked.lastUsedAt = Date.now();
      try {
        await retryConflicts(() => knex('api_tokens').where('id', claims.tid).update({ last_used_at: nowTimestamp() }));
      } catch (error) {
        // Bookkeeping only: the request goes on, and the next one writes it.
        checked.lastUsedAt = 0;
        request.log.warn({ code: (error as { code?: string }).code }, 'could not record the API token as used');
      }
    }
  }

  /** Whether a checked token still stands by the counters' row (then the request has its user). */
  async function stillChecked(request: FastifyRequest, claims: TokenClaims, checked: CheckedToken, row: Row | undefined): Promise<boolean> {
    const current = row !== undefined && Number(row[ACCESS_VERSION]) === checked.accessVersion && Number(row[TOKEN_VERSION]) === checked.tokenVersion;
    if (!current) {
      checkedTokens.delete(claims.jti);
      return false;
    }
    await accept(request, claims, checked);
    return true;
  }

  /** The token's claims (signature and expiry checked), or 401. */
  function claimsOf(request: FastifyRequest): TokenClaims {
    const claims = request.tokenClaims ?? readTokenFromRequest(app, request);
    if (!claims) throw new UnauthenticatedError();
    return claims;
  }

  /** The check on its own, then settled (`options`: whether it is the request's first statement). */
  async function checkNow(request: FastifyRequest, claims: TokenClaims, options?: StatementOptions): Promise<void> {
    const [row] = await statements.all(...checkAlone(checkOf(claims)), options);
    await settle(request, claims, row);
  }

  async function authenticate(request: FastifyRequest): Promise<void> {
    const claims = claimsOf(request);
    const checked = checkedTokens.get(claims.jti);
    if (!checked) return checkNow(request, claims, OPENS_REQUEST);
    const [row] = await statements.all(COUNTERS_SQL, COUNTERS_PARAMS, OPENS_REQUEST);
    if (await stillChecked(request, claims, checked, row)) return;
    await checkNow(request, claims);
  }

  async function authenticateWithFirstRead(request: FastifyRequest): Promise<void> {
    // An Idempotency-Key is looked up per user before the handler runs (src/http/idempotency.ts).
    if (request.headers['idempotency-key'] !== undefined) return authenticate(request);
    const claims = claimsOf(request);
    const checked = checkedTokens.get(claims.jti);
    // A token this process has not checked yet gets the full check, on its own (once).
    if (!checked) return checkNow(request, claims);
    request.pendingAuthentication = {
      guess: checked.principal,
      check: COUNTERS,
      settle: async (request, row) => {
        if (await stillChecked(request, claims, checked, row)) return true;
        // The counters moved: the full check on its own; the read stands if the user's access did not change.
        await checkNow(request, claims);
        return principalOf(request).access === checked.principal.access;
      },
      run: (request) => authenticate(request),
    } satisfies PendingAuthentication;
  }

  return { authenticate, authenticateWithFirstRead };
}

/** A token's effective permissions: its abilities that its user still holds. */
function narrowed(access: Access, abilities: string): Access {
  const allowed = new Set<string>(JSON.parse(abilities) as string[]);
  return { ...access, permissions: new Set([...access.permissions].filter((name) => allowed.has(name))) };
}

/** An API token's stored last_used_at in ms (0: never; login tokens have none). */
function lastUsed(lastUsedAt: string | null | undefined): number {
  return lastUsedAt ? Date.parse(`${lastUsedAt.replace(' ', 'T')}Z`) : 0;
}

function principalOf(request: FastifyRequest): Principal {
  return request.authUser as Principal;
}

export function readTokenFromRequest(app: FastifyInstance, request: FastifyRequest): TokenClaims | undefined {
  const token = bearerToken(request.headers.authorization);
  return token ? readToken(app, token) : undefined;
}
