// A request's unit of writing (engine/write/unit.ts), as its user, with its path's parameters and
// its id kept with each change.
import type { FastifyRequest } from 'fastify';
import { inWriteUnit, type WriteUnit } from '../write/unit.ts';
import type { ResourceRuntime } from './runtime.ts';

export function inRequestUnit<T>(runtime: ResourceRuntime, request: FastifyRequest, work: (unit: WriteUnit) => Promise<T>): Promise<T> {
  return inWriteUnit(runtime.writes, { user: request.authUser!, params: request.params as Record<string, string>, requestId: String(request.id) }, work);
}
