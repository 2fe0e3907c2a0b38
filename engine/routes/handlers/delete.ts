import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientErrorFromDb } from '../../errors/db-errors.ts';
import { removeRecords } from '../../write/pipeline.ts';
import { authorizeChange, findParent, findRecord, visibleRows } from '../lookup.ts';
import { assertIfMatch, assertIfMatchLocked, recordETag } from '../etag.ts';
import { pathId } from '../path-params.ts';
import type { ResourceRuntime } from '../runtime.ts';
import { inRequestUnit } from '../write-unit.ts';

/**
 * DELETE {id}: to the trash where the definition says so (softDelete), else for good; `force`:
 * DELETE {id}/force, for good, trashed or not (it cannot be restored afterwards). Both through the
 * pipeline's removal: locks, beforeDelete behaviours, `onDelete: restrict`, the change feed.
 */
export function deleteHandler(runtime: ResourceRuntime, { force = false } = {}) {
  const { def } = runtime;
  const operation = force ? 'forceDelete' : 'delete';
  const hard = force || !def.softDelete;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = pathId(request, 'id');
    const parent = await findParent(runtime, request);
    const record = await findRecord(runtime, id, { parentId: parent?.id, rows: visibleRows(runtime, request), ...(force && { trashed: 'with' as const }) });
    await authorizeChange(runtime, request, operation, { parent: parent?.record, record });
    assertIfMatch(request, recordETag(def, runtime.serialize(record)));
    try {
      await inRequestUnit(runtime, request, async ({ trx, context }) => {
        await assertIfMatchLocked(runtime, request, trx, id);
        await removeRecords(context, def, [record], { hard, kind: force ? 'force_deleted' : 'deleted' });
      });
    } catch (error) {
      throw clientErrorFromDb(error, def, true) ?? error;
    }
    return reply.send({ message: force ? def.messages.forceDeleted : def.messages.deleted });
  };
}

export const forceDeleteHandler = (runtime: ResourceRuntime) => deleteHandler(runtime, { force: true });
