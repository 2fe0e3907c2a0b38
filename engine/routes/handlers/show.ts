import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseIncludes, type RawQuery } from '../../list/parse-list-query.ts';
import { authorize, findParentId, findRecord } from '../lookup.ts';
import { pathId } from '../path-params.ts';
import type { ResourceRuntime } from '../runtime.ts';

export function showHandler(runtime: ResourceRuntime) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = pathId(request, 'id');
    const includes = parseIncludes(request.query as RawQuery, runtime.def);
    const parentId = await findParentId(runtime, request);
    await authorize(runtime, request, 'show');
    const record = await findRecord(runtime, id, { parentId, includes });
    return reply.send({ data: runtime.serialize(record) });
  };
}
