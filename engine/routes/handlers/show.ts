import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseIncludes, type RawQuery } from '../../list/parse-list-query.ts';
import { authorize, findRecord, parentExists, visibleRows } from '../lookup.ts';
import { notModified, recordETag } from '../etag.ts';
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
    const data = runtime.serialize(record);
    const etag = recordETag(runtime.def, data);
    if (notModified(request, reply, etag)) return reply;
    return reply.header('etag', etag).send({ data });
  };
}
