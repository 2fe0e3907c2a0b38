import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientErrorFromDb } from '../../errors/db-errors.ts';
import { assertDeletable } from '../guards.ts';
import { writeContext } from '../write-context.ts';
import { runHooks } from '../write-record.ts';
import { refuseLockedDelete } from '../../rules/locks.ts';
import { authorizeChange, findParent, findRecord, visibleRows } from '../lookup.ts';
import { assertIfMatch, assertIfMatchLocked, recordETag } from '../etag.ts';
import { pathId } from '../path-params.ts';
import type { ResourceRuntime } from '../runtime.ts';
import { inWriteUnit } from '../write-unit.ts';

/** Removes a record for good, trashed or not. It cannot be restored afterwards. */
export function forceDeleteHandler(runtime: ResourceRuntime) {
  const { def } = runtime;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = pathId(request, 'id');
    const parent = await findParent(runtime, request);
    const record = await findRecord(runtime, id, { parentId: parent?.id, trashed: 'with', rows: visibleRows(runtime, request) });
    await authorizeChange(runtime, request, 'forceDelete', { parent: parent?.record, record });
    assertIfMatch(request, recordETag(def, runtime.serialize(record)));
    try {
      await inWriteUnit(runtime, request, async (trx, changes) => {
        await assertIfMatchLocked(runtime, request, trx, id);
        const context = writeContext(runtime, request, trx, changes);
        refuseLockedDelete(def, record);
        await runHooks(context, def, 'beforeDelete', {
          trx,
          def,
          user: context.user,
          values: {},
          record,
          params: context.params,
          changes,
          records: context.records,
          get models() {
            return context.models;
          },
        });
        await assertDeletable(runtime, trx, id);
        await changes.removing(trx, def.name, [record], 'force_deleted');
        await trx(def.table).where('id', id).delete();
      });
    } catch (error) {
      throw clientErrorFromDb(error, def, true) ?? error;
    }
    return reply.send({ message: def.messages.forceDeleted });
  };
}
