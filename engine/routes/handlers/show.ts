import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseIncludes, type RawQuery } from '../../list/parse-list-query.ts';
import { authorize, findRecord, parentExists, visibleRows } from '../lookup.ts';
import { pathId } from '../path-params.ts';
import type { ResourceRuntime } from '../runtime.ts';

export function showHandler(runtime: ResourceRuntime) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = pathId(request, 'id');
    const includes = parseIncludes(request.query as RawQuery, runtime.def);
    // A missing parent and a missing record are the same 404: one query checks both.
    const parent = parentExists(runtime, request);
    const record = await findRecord(runtime, id, { parentId: parent?.id, includes, rows: visibleRows(runtime, request), also: parent && [parent.condition] });
    authorize(runtime, request, 'show', { record });
    return reply.send({ data: runtime.serialize(record) });
  };
}
