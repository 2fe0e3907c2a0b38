import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../errors/http-errors.ts';
import { parseListQuery, type RawQuery } from '../../list/parse-list-query.ts';
import { runList } from '../run-list.ts';
import { listEnvelope } from '../../serialize/envelope.ts';
import { authorize } from '../lookup.ts';
import type { ResourceRuntime } from '../runtime.ts';

export function listHandler(runtime: ResourceRuntime) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as RawQuery;
    const list = parseListQuery(query, runtime.def);
    const result = await runList(runtime, request, list);
    // A missing parent is a 404 before any 403, as in the original; the permission needs no parent row.
    if (!result) throw new NotFoundError();
    authorize(runtime, request, 'list', {});
    const path = `${request.protocol}://${request.host}${request.url.split('?')[0]}`;
    return reply.send(listEnvelope(result.rows.map(runtime.serialize), { path, query, page: list.page, perPage: list.perPage, total: result.total, totalExact: result.exact }));
  };
}
