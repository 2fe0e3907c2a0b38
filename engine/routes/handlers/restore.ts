import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseIncludes, type RawQuery } from '../../list/parse-list-query.ts';
import { authorizeChange, findParent, findRecord, visibleRows } from '../lookup.ts';
import { recordETag } from '../etag.ts';
import { pathId } from '../path-params.ts';
import type { ResourceRuntime } from '../runtime.ts';
import { inRequestUnit } from '../write-unit.ts';

/**
 * Brings a soft-deleted record back. Restoring a live record is harmless and answers the same. A
 * trashed record comes back only where an update would leave it: a value unique among live records
 * (`unique: live`) that a live one has taken since is a 422 naming the field, as an update sending
 * it would be, and the record stays in the trash.
 */
export function restoreHandler(runtime: ResourceRuntime) {
  const { def } = runtime;
  const uniqueAmongLive = [...def.fields.values()].filter((field) => field.unique === 'live' && field.writable);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = pathId(request, 'id');
    const includes = parseIncludes(request.query as RawQuery, def);
    const parent = await findParent(runtime, request);
    const rows = visibleRows(runtime, request);
    const found = await findRecord(runtime, id, { parentId: parent?.id, trashed: 'with', rows });
    await authorizeChange(runtime, request, 'restore', { parent: parent?.record, record: found });
    if (found.deleted_at != null && uniqueAmongLive.length > 0) {
      const kept = Object.fromEntries(uniqueAmongLive.map((field) => [field.name, found[field.name]]));
      await runtime.validator.validate(kept, runtime.statements, { mode: 'update', id });
    }
    await inRequestUnit(runtime, request, async ({ trx, changes }) => {
      await trx(def.table).where('id', id).update({ deleted_at: null });
      changes.add(def.name, id, 'restored');
    });
    const record = await findRecord(runtime, id, { parentId: parent?.id, includes, rows });
    const data = runtime.serialize(record);
    return reply.header('etag', recordETag(def, data)).send({ data, message: def.messages.restored });
  };
}
