import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseIncludes, type RawQuery } from '../../list/parse-list-query.ts';
import { authorize, findParentId, findRecord } from '../lookup.ts';
import { pathId } from '../path-params.ts';
import type { ResourceRuntime } from '../runtime.ts';

/** Brings a soft-deleted record back. Restoring a live record is harmless and answers the same. */
export function restoreHandler(runtime: ResourceRuntime) {
  const { def, deps } = runtime;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = pathId(request, 'id');
    const includes = parseIncludes(request.query as RawQuery, def);
    const parentId = await findParentId(runtime, request);
    await authorize(runtime, request, 'restore');
    await findRecord(runtime, id, { parentId, trashed: 'with' });
    await deps.knex(def.table).where('id', id).update({ deleted_at: null });
    const record = await findRecord(runtime, id, { parentId, includes });
    return reply.send({ data: runtime.serialize(record), message: def.messages.restored });
  };
}
