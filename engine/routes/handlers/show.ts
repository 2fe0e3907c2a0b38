import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseIncludes, type RawQuery } from '../../list/parse-list-query.ts';
import { authorize, findShownRecord } from '../lookup.ts';
import { notModified, recordETag } from '../etag.ts';
import { pathId } from '../path-params.ts';
import type { ResourceRuntime } from '../runtime.ts';

export function showHandler(runtime: ResourceRuntime) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = pathId(request, 'id');
    const includes = parseIncludes(request.query as RawQuery, runtime.def);
    const record = await findShownRecord(runtime, request, id, includes);
    authorize(runtime, request, 'show', { record });
    const data = runtime.serialize(record);
    const etag = recordETag(runtime.def, data);
    if (notModified(request, reply, etag)) return reply;
    return reply.header('etag', etag).send({ data });
  };
}
