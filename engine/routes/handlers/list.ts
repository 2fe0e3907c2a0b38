import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseListQuery, type RawQuery } from '../../list/parse-list-query.ts';
import { runList } from '../../list/run-list.ts';
import { listEnvelope } from '../../serialize/envelope.ts';
import { authorize, findParent, visibleRows } from '../lookup.ts';
import type { ResourceRuntime } from '../runtime.ts';

export function listHandler(runtime: ResourceRuntime) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as RawQuery;
    const list = parseListQuery(query, runtime.def);
    const parent = await findParent(runtime, request);
    authorize(runtime, request, 'list', { parent: parent?.record });
    const { total, rows } = await runList(runtime, list, parent?.id, visibleRows(runtime, request));
    const path = `${request.protocol}://${request.host}${request.url.split('?')[0]}`;
    return reply.send(listEnvelope(rows.map(runtime.serialize), { path, query, page: list.page, perPage: list.perPage, total }));
  };
}
