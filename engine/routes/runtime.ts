// Everything a resource's routes need, prepared once at boot.
import type { FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import type { Registry } from '../definition/registry.ts';
import type { ResourceDef } from '../definition/types.ts';
import type { AuthUser, Behaviours } from '../behaviours/types.ts';
import type { Serialize } from '../serialize/record.ts';
import type { SchemaBounds } from '../schema/column-bounds.ts';
import type { Columns } from '../sql/columns.ts';
import type { Statements } from '../sql/statements.ts';
import type { FieldErrors } from '../errors/http-errors.ts';
import type { BodyValidator } from '../validation/body-validator.ts';

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

/** The rows of a resource a user may see: `column IN (values)`, and rows without a value when `orNull`. */
export interface RowScope {
  column: string;
  values: readonly number[];
  orNull: boolean;
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
  /** URL prefix of every resource path, e.g. /admin/api/v1. */
  prefix: string;
  /**
   * How many rows past the requested page a list's count looks at (engine/list/run-list.ts):
   * beyond, the total is a lower bound and meta says so. 0 or unset: lists count every row.
   */
  countAhead?: number;
}

export interface ResourceRuntime {
  def: ResourceDef;
  parentDef?: ResourceDef;
  serialize: Serialize;
  validator: BodyValidator;
  statements: Statements;
  /** What reads select of a resource: its row and its subquery fields. */
  columns: Columns;
  /** The resource's columns whose LIKE already ignores case (engine/schema/column-bounds.ts). */
  likeIgnoresCase: ReadonlySet<string>;
  /** The runtime of another resource (the result of an action). */
  others(name: string): ResourceRuntime;
  /** The relations to load for the client's includes: those plus the ones the definition always embeds. */
  loaded(includes?: readonly string[]): string[];
  deps: EngineDeps;
}
