// GET <list path>/export?format=csv|jsonl|xlsx: every row the list would show (its filter[...],
// sort and trashed, the same permission, company and record scope), not a page, streamed by the
// export pipeline the command line uses too (engine/transfer/export/export-pipeline.ts). What is
// the route's own: the parent and the permission (the pipeline's scope, settled with the query and
// the first batch before the answer starts, so each of those failures is an ordinary error
// response), the user's rows, the headers and the reply; the rest of the rows follow as the
// client reads them. A nested resource is also exported across all its parents
// (GET /<module>/<name>/export: every order's lines), each row with its parent's id, among the
// parents the user may see.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fastifyPath } from '../definition/route-table.ts';
import { NotFoundError } from '../errors/http-errors.ts';
import type { RawQuery } from '../list/parse-list-query.ts';
import { openExport } from '../transfer/export/export-pipeline.ts';
import { allParentsExportPath, exportPath } from '../transfer/export/export-query.ts';
import { authorize, lookUpParent, visibleParents } from './lookup.ts';
import { userCompanyZone } from './run-list.ts';
import type { ResourceRuntime } from './runtime.ts';

/** Registers the export route of every resource with a list. */
export function registerExports(app: FastifyInstance, runtimes: Iterable<ResourceRuntime>): void {
  for (const runtime of runtimes) {
    const { def, deps } = runtime;
    if (!def.operations.has('list')) continue;
    app.get(fastifyPath(exportPath(def, deps.prefix)), {
      onRequest: deps.authenticate,
      config: { resource: def.name, operation: 'export' },
      handler: exportHandler(runtime, false),
    });
    const everyParent = allParentsExportPath(def, deps.prefix);
    if (everyParent) app.get(everyParent, { onRequest: deps.authenticate, config: { resource: def.name, operation: 'export' }, handler: exportHandler(runtime, true) });
  }
}

/** `everyParent`: a nested resource's rows under every parent the user may see, each with its parent's id. */
function exportHandler(runtime: ResourceRuntime, everyParent: boolean) {
  const { def, deps } = runtime;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const opened = await openExport({
      def,
      registry: deps.registry,
      statements: runtime.statements,
      columns: runtime.columns,
      serialize: runtime.serialize,
      serializeOf: (name) => runtime.others(name).serialize,
      likeIgnoresCase: runtime.likeIgnoresCase,
      query: request.query as RawQuery,
      // A missing parent is a 404 before any 403, as the list answers; the permission is the list's.
      scope: async () => {
        const parent = everyParent ? undefined : await lookUpParent(runtime, request);
        if (parent === null) throw new NotFoundError();
        authorize(runtime, request, 'list', {});
        const user = request.authUser!;
        return {
          parentId: parent?.id,
          rows: deps.policy.rowScope(user, def),
          conditions: everyParent ? [visibleParents(runtime, user)] : [],
          companyTimeZone: () => userCompanyZone(runtime, user),
        };
      },
    });
    return reply
      .header('content-type', opened.contentType)
      .header('content-disposition', `attachment; filename="${opened.fileName}"`)
      .header('cache-control', 'no-store')
      .send(opened.stream);
  };
}
