import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientErrorFromDb } from '../../errors/db-errors.ts';
import { parseIncludes, type RawQuery } from '../../list/parse-list-query.ts';
import { nowTimestamp } from '../../serialize/formats.ts';
import { runHooks } from '../hooks.ts';
import { authorize, findParentId, findRecord } from '../lookup.ts';
import type { ResourceRuntime } from '../runtime.ts';

export function createHandler(runtime: ResourceRuntime) {
  const { def, deps } = runtime;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const includes = parseIncludes(request.query as RawQuery, def);
    const values = await runtime.validator.validate(request.body, deps.knex, { mode: 'create' });
    const parentId = await findParentId(runtime, request);
    await authorize(runtime, request, 'create');

    const user = request.authUser!;
    const params = request.params as Record<string, string>;
    let id: number;
    try {
      id = await deps.knex.transaction(async (trx) => {
        if (def.parent) values[def.parent.foreignKey] = parentId; // the path's parent wins over the body
        if (def.creator) values.creator_id = user.id;
        if (def.timestamps) values.created_at = values.updated_at = nowTimestamp();
        for (const field of def.fields.values()) {
          if (values[field.name] === undefined && field.default !== undefined && field.stored) values[field.name] = field.default;
        }
        const context = { trx, def, user, values, params };
        await runHooks(runtime, 'beforeCreate', context);
        const [insertedId] = await trx(def.table).insert(values);
        const newId = Number(insertedId);
        if (def.behaviours.afterCreate.length > 0) {
          const record = await findRecord(runtime, newId, { parentId, trx });
          await runHooks(runtime, 'afterCreate', { ...context, record });
        }
        return newId;
      });
    } catch (error) {
      throw clientErrorFromDb(error, def) ?? error;
    }
    const record = await findRecord(runtime, id, { parentId, includes });
    return reply.code(201).send({ data: runtime.serialize(record), message: def.messages.created });
  };
}
