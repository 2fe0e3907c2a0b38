import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientErrorFromDb } from '../../errors/db-errors.ts';
import { parseIncludes, type RawQuery } from '../../list/parse-list-query.ts';
import type { ChangeSet } from '../../behaviours/change-set.ts';
import { authorizeChange, checkValues, findParent, findRecord, visibleRows, writtenRecord } from '../lookup.ts';
import { assertIfMatch, assertIfMatchLocked, recordETag } from '../etag.ts';
import { pathId } from '../path-params.ts';
import type { ResourceRuntime } from '../runtime.ts';
import { inRequestUnitWithChanges } from '../write-unit.ts';
import { updateRecords } from '../../write/pipeline.ts';

/** PUT and PATCH: only the fields sent change. */
export function updateHandler(runtime: ResourceRuntime) {
  const { def } = runtime;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = pathId(request, 'id');
    const includes = parseIncludes(request.query as RawQuery, def);
    const values = await runtime.validator.validate(request.body, runtime.statements, { mode: 'update', id });
    checkValues(runtime, request, values, 'update');
    const parent = await findParent(runtime, request);
    const found = await findRecord(runtime, id, { parentId: parent?.id, rows: visibleRows(runtime, request) });
    await authorizeChange(runtime, request, 'update', { parent: parent?.record, record: found });
    assertIfMatch(request, recordETag(def, runtime.serialize(found)));

    let changes: ChangeSet;
    try {
      ({ changes } = await inRequestUnitWithChanges(runtime, request, async ({ trx, context }) => {
        await assertIfMatchLocked(runtime, request, trx, id);
        const current = await trx(def.table).where('id', id).first();
        // A conditional update always writes the row (updated_at), so that a cluster node's
        // concurrent write to it conflicts with this one even when only nested records change.
        await updateRecords(context, def, [{ id, values, current }], { touch: request.headers['if-match'] !== undefined });
      }));
    } catch (error) {
      throw clientErrorFromDb(error, def) ?? error;
    }
    // The update may have moved the record to another parent (a UOM to another category).
    const record = await writtenRecord(runtime, changes, id, { includes, trashed: 'with' });
    const data = runtime.serialize(record);
    return reply.header('etag', recordETag(def, data)).send({ data, message: def.messages.updated });
  };
}
