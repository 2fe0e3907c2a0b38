import type { FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import type { ResourceRuntime } from './runtime.ts';
import type { ChangeSet } from '../behaviours/change-set.ts';
import type { WriteContext } from './write-record.ts';
import { attachRecords } from '../behaviours/records-of.ts';
import { recordWriters } from './record-writer.ts';

/** What a write in this request's transaction needs. */
export function writeContext(runtime: ResourceRuntime, request: FastifyRequest, trx: Knex.Transaction, changes: ChangeSet): WriteContext {
  const context: WriteContext = {
    trx,
    changes,
    registry: runtime.deps.registry,
    bounds: runtime.deps.bounds,
    records: (resource) => records(resource),
    behaviours: runtime.deps.behaviours,
    user: request.authUser!,
    userCompany: () => runtime.deps.policy.defaultCompany(request.authUser!),
    params: request.params as Record<string, string>,
    get models() {
      return runtime.models;
    },
  };
  // A behaviour's writes to other resources go through the same path, in this transaction.
  const records = recordWriters(context);
  attachRecords(trx, records);
  return context;
}
