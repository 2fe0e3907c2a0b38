// Everything a resource's routes need, prepared once at boot.
import type { FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import type { Operation } from '../definition/format.ts';
import type { Registry } from '../definition/registry.ts';
import type { ResourceDef } from '../definition/types.ts';
import type { AuthUser, Behaviours } from '../behaviours/types.ts';
import type { ModelClass } from '../model/build-models.ts';
import type { Serialize } from '../serialize/record.ts';
import type { BodyValidator } from '../validation/body-validator.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which resource and operation a generated route serves (for logs, docs and policies). */
    resource?: string;
    operation?: Operation;
  }
  interface FastifyRequest {
    /** Set by the authentication hook the app passes to the engine. */
    authUser?: AuthUser;
  }
}

/** The single authorization point: every generated route asks it before doing anything. */
export type Authorize = (user: AuthUser, def: ResourceDef, operation: Operation) => boolean | Promise<boolean>;

export interface EngineDeps {
  knex: Knex;
  registry: Registry;
  behaviours: Behaviours;
  /** onRequest hook that sets request.authUser or answers 401. */
  authenticate: (request: FastifyRequest) => Promise<void>;
  authorize: Authorize;
  /** URL prefix of every resource path, e.g. /admin/api/v1. */
  prefix: string;
}

export interface ResourceRuntime {
  def: ResourceDef;
  parentDef?: ResourceDef;
  model: ModelClass;
  parentModel?: ModelClass;
  serialize: Serialize;
  validator: BodyValidator;
  /** Objection's allowGraph expression of the declared includes. */
  allowGraph: string;
  deps: EngineDeps;
}
