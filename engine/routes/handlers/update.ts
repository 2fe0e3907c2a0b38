import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientErrorFromDb } from '../../errors/db-errors.ts';
import { parseIncludes, type RawQuery } from '../../list/parse-list-query.ts';
import { nowTimestamp } from '../../serialize/formats.ts';
import { runHooks } from '../hooks.ts';
import { authorize, findParentId, findRecord } from '../lookup.ts';
import { pathId } from '../path-params.ts';
import type { ResourceRuntime } from '../runtime.ts';

/** PUT and PATCH: only the fields sent change. */
export function updateHandler(runtime: ResourceRuntime) {
  const { def, deps } = runtime;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = pathId(request, 'id');
    const includes = parseIncludes(request.query as RawQuery, def);
    const values = await runtime.validator.validate(request.body, deps.knex, { mode: 'update', id });
    const parentId = await findParentId(runtime, request);
    await authorize(runtime, request, 'update');
    const current = await findRecord(runtime, id, { parentId });

    const user = request.authUser!;
    const params = request.params as Record<string, string>;
    try {
      await deps.knex.transaction(async (trx) => {
        const context = { trx, def, user, values, params, record: current };
        await runHooks(runtime, 'beforeUpdate', context);
        if (Object.keys(values).length > 0) {
          if (def.timestamps) values.updated_at = nowTimestamp();
          await trx(def.table).where('id', id).update(values);
        }
        if (def.behaviours.afterUpdate.length > 0) {
          const record = await findRecord(runtime, id, { parentId: undefined, trashed: 'with', trx });
          await runHooks(runtime, 'afterUpdate', { ...context, record });
        }
      });
    } catch (error) {
      throw clientErrorFromDb(error, def) ?? error;
    }
    // The update may have moved the record to another parent (a UOM to another category).
    const record = await findRecord(runtime, id, { parentId: undefined, includes, trashed: 'with' });
    return reply.send({ data: runtime.serialize(record), message: def.messages.updated });
  };
}
