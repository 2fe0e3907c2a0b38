import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseIncludes, type RawQuery } from '../../list/parse-list-query.ts';
import { authorize, findParent, findRecord, visibleRows } from '../lookup.ts';
import { pathId } from '../path-params.ts';
import type { ResourceRuntime } from '../runtime.ts';

export function showHandler(runtime: ResourceRuntime) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = pathId(request, 'id');
    const includes = parseIncludes(request.query as RawQuery, runtime.def);
    const parent = await findParent(runtime, request);
    const record = await findRecord(runtime, id, { parentId: parent?.id, includes, rows: visibleRows(runtime, request) });
    authorize(runtime, request, 'show', { parent: parent?.record, record });
    return reply.send({ data: runtime.serialize(record) });
  };
}
