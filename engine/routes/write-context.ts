import type { FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import type { ResourceRuntime } from './runtime.ts';
import type { ChangeSet } from '../behaviours/change-set.ts';
import type { WriteContext } from './write-record.ts';

/** What a write in this request's transaction needs. */
export function writeContext(runtime: ResourceRuntime, request: FastifyRequest, trx: Knex.Transaction, changes: ChangeSet): WriteContext {
  return {
    trx,
    changes,
    registry: runtime.deps.registry,
    behaviours: runtime.deps.behaviours,
    user: request.authUser!,
    userCompany: () => runtime.deps.policy.defaultCompany(request.authUser!),
    params: request.params as Record<string, string>,
    get models() {
      return runtime.models;
    },
  };
}
