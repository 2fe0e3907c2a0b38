import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResourceRuntime } from '../runtime.ts';
import { clientErrorFromDb } from '../../errors/db-errors.ts';
import { parseIncludes, withIdLast, type RawQuery } from '../../list/parse-list-query.ts';
import { includeTree, loadRelations } from '../../sql/load-relations.ts';
import { sortedRows } from '../../sql/list-query.ts';
import { whereClause } from '../../sql/quote.ts';
import { resourceRows } from '../../sql/resource-rows.ts';
import { authorize, findParent, visibleRows } from '../lookup.ts';
import { inRequestUnit } from '../write-unit.ts';
import { actionContext } from '../../write/context.ts';

/**
 * POST on a nested collection (an action with `on: collection`, a product's variants' sync): the
 * parent (404), the permission (403), then the action behaviour on the parent's row, locked, in
 * one transaction; answers 200 {data: [every live record of the collection], message}, unpaginated,
 * in the default sort.
 */
export function collectionActionHandler(runtime: ResourceRuntime, name: string) {
  const { def, deps } = runtime;
  const parentDef = runtime.parentDef!;
  const action = def.actions.get(name)!;
  // A collection action has a behaviour (checked at boot).
  const run = deps.behaviours.actions[action.behaviour!]!;
  // The answer's query but its conditions, written once: every live record, in the default sort (id breaks ties).
  const answer = sortedRows(def.table, runtime.columns(def), withIdLast(def.defaultSort));
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const includes = parseIncludes(request.query as RawQuery, def);
    const parent = (await findParent(runtime, request))!;
    // The action acts on the parent: a resource with permissions of its own is asked about it.
    authorize(runtime, request, name, { parent: parent.record, record: parent.record });
    try {
      await inRequestUnit(runtime, request, async ({ trx, changes, context }) => {
        const record = await trx(parentDef.table).where('id', parent.id).forUpdate().first();
        await run(actionContext(context, def, record, {}));
        changes.add(parentDef.name, parent.id, action.change ?? name);
      });
    } catch (error) {
      throw clientErrorFromDb(error, def) ?? error;
    }

    const where = whereClause(resourceRows(def, deps.registry, { parentId: parent.id, rows: visibleRows(runtime, request) }));
    const read = answer(where);
    const rows = await runtime.statements.all(read.sql, read.params);
    await loadRelations(runtime.statements, deps.registry, runtime.columns, def, rows, includeTree(runtime.loaded(includes)));
    return reply.code(200).send({ data: rows.map((row) => runtime.serialize(row)), message: action.message });
  };
}
