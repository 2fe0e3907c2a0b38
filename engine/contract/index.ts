// The engine's contract with the app that runs it: what the app hands the engine (EngineDeps),
// the single authorization point it implements (Policy), and what the engine adds to Fastify's
// types. Every generated route is built against this, and nothing here knows of routes.
import type { FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import type { AuthUser, Behaviours, Models } from '../behaviours/types.ts';
import type { Registry } from '../definition/registry.ts';
import type { ResourceDef } from '../definition/types.ts';
import type { FieldErrors } from '../errors/http-errors.ts';
import type { SchemaBounds } from '../schema/column-bounds.ts';
import type { CompanyTimeZone } from '../keys/company-today.ts';
import type { RowScope } from '../sql/resource-rows.ts';
import type { Statements } from '../sql/statements.ts';

export type { RowScope };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which resource and operation a generated route serves (for logs, docs and policies). */
    resource?: string;
    operation?: string;
  }
  interface FastifyRequest {
    /** Set by the authentication hook the app passes to the engine. */
    authUser?: AuthUser;
  }
}

/** One question to the policy: may this user run this operation? */
export interface AccessCheck {
  /** The resource whose permissions apply: the resource itself, or the parent a nested one authorizes against. */
  def: ResourceDef;
  /** An operation (list, show, ...) or an action's name (validate, ...). */
  operation: string;
  /** The permission names the definition says the operation needs (all of them). */
  permissions: readonly string[];
  /** The record of `def` acted on, once found (absent for list and create of a top-level resource). */
  record?: Record<string, unknown>;
  /** For a change of a record whose definition names an `owner`: the ids of its owners (none: an unowned record). */
  owners?: readonly number[];
}

/**
 * The single authorization point, implemented by the app (src/access/policy.ts). Every generated route
 * asks it, in the original's order: a list or create before anything else, a record's operation
 * once the record is found (404 first, then 403).
 */
export interface Policy {
  /** false answers 403. */
  authorize(user: AuthUser, check: AccessCheck): boolean;
  /** The rows of a resource this user may see, if not all (company scope); applied to every lookup and list. */
  rowScope(user: AuthUser, def: ResourceDef): RowScope | undefined;
  /** Checks (and may complete) validated values before a write; errors answer 422. */
  checkValues(user: AuthUser, def: ResourceDef, values: Record<string, unknown>, mode: 'create' | 'update'): FieldErrors | undefined;
  /** The company the user's new records go to when none is given (a definition's `defaultFrom: {user: company}`). */
  defaultCompany(user: AuthUser): number | null;
}

export interface EngineDeps {
  knex: Knex;
  /** What each column can store (engine/schema/column-bounds.ts): fields are bounded by it. */
  bounds?: SchemaBounds;
  /** Prepared reads (engine/sql/statements.ts); writes go through knex. */
  statements: Statements;
  registry: Registry;
  behaviours: Behaviours;
  /** onRequest hook that sets request.authUser or answers 401. */
  authenticate: (request: FastifyRequest) => Promise<void>;
  /** onRequest hook that may leave the check to the route's first read (request.pendingAuthentication). */
  authenticateWithFirstRead?: (request: FastifyRequest) => Promise<void>;
  policy: Policy;
  /** The resources' Objection models the app also uses (engine/models); built from the registry when absent. */
  models?: Models;
  /** URL prefix of every resource path, e.g. /admin/api/v1. */
  prefix: string;
  /**
   * How many rows past the requested page a list's count looks at (engine/routes/run-list.ts):
   * beyond, the total is a lower bound and meta says so. 0 or unset: lists count every row.
   */
  countAhead?: number;
  /**
   * Where grouped totals read, under their time limit (engine/sql/time-limited-reads.ts): a
   * worker thread's connection on SQLite, the server with a statement time limit on MySQL/MariaDB.
   * The statements, with no limit, when absent.
   */
  reportReads?: Pick<Statements, 'all'>;
  /**
   * A company's time zone (an IANA name): the dates that default to today are its local date, and
   * grouped totals bucket datetimes in the user's default company's zone unless asked for another.
   * UTC when absent.
   */
  companyTimeZone?: CompanyTimeZone;
  /** The bounds of one import request (engine/transfer/import): bytes (413 beyond) and rows (422). */
  importLimits?: { maxBytes: number; maxRows: number };
}
