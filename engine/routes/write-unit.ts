// A request's unit of writing: one transaction that also records what it changed
// (engine/changes) and calls the invalidators of what it wrote (invalidate.ts), run again whole
// after a write conflict (engine/sql/retry.ts). Every handler that writes goes through it, so that
// no write escapes the change feed.
import type { FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import { attachChanges, ChangeSet } from '../behaviours/change-set.ts';
import { inTransaction } from '../sql/retry.ts';
import { runInvalidators } from './invalidate.ts';
import type { ResourceRuntime } from './runtime.ts';

export function inWriteUnit<T>(runtime: ResourceRuntime, request: FastifyRequest, work: (trx: Knex.Transaction, changes: ChangeSet) => Promise<T>): Promise<T> {
  return inTransaction(runtime.deps.knex, async (trx) => {
    const changes = new ChangeSet(runtime.changes.dependents);
    attachChanges(trx, changes);
    const result = await work(trx, changes);
    await runInvalidators(runtime.deps.registry, runtime.deps.behaviours, trx, changes);
    await runtime.changes.record(trx, changes, { userId: request.authUser?.id ?? null, requestId: String(request.id) });
    return result;
  });
}
