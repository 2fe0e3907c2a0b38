// A request's unit of writing (engine/write/unit.ts), as its user, with its path's parameters and
// its id kept with each change.
import type { FastifyRequest } from 'fastify';
import type { ChangeSet } from '../behaviours/change-set.ts';
import { inWriteUnit, type WriteUnit } from '../write/unit.ts';
import type { ResourceRuntime } from './runtime.ts';

export function inRequestUnit<T>(runtime: ResourceRuntime, request: FastifyRequest, work: (unit: WriteUnit) => Promise<T>): Promise<T> {
  return inWriteUnit(runtime.writes, { user: request.authUser!, params: request.params as Record<string, string>, requestId: String(request.id) }, work);
}

/**
 * inRequestUnit, answering also the change set of the attempt that committed (a unit lost to a
 * write conflict runs again with a new one): what its recorder read back (writtenRecord).
 */
export async function inRequestUnitWithChanges<T>(
  runtime: ResourceRuntime,
  request: FastifyRequest,
  work: (unit: WriteUnit) => Promise<T>,
): Promise<{ result: T; changes: ChangeSet }> {
  let changes: ChangeSet | undefined;
  const result = await inRequestUnit(runtime, request, (unit) => {
    changes = unit.changes;
    return work(unit);
  });
  return { result, changes: changes! };
}
