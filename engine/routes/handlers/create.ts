import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientErrorFromDb } from '../../errors/db-errors.ts';
import { parseIncludes, type RawQuery } from '../../list/parse-list-query.ts';
import { authorize, findParentId, findRecord } from '../lookup.ts';
import type { ResourceRuntime } from '../runtime.ts';
import { inTransaction } from '../transaction.ts';
import { writeContext } from '../write-context.ts';
import { insertRecord } from '../write-record.ts';

export function createHandler(runtime: ResourceRuntime) {
  const { def, deps } = runtime;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const includes = parseIncludes(request.query as RawQuery, def);
    const values = await runtime.validator.validate(request.body, deps.knex, { mode: 'create' });
    const parentId = await findParentId(runtime, request);
    await authorize(runtime, request, 'create');

    let id: number;
    try {
      // The path's parent wins over a parent id in the body. Nested records go in the same transaction.
      const fixed = def.parent ? { [def.parent.foreignKey]: parentId } : {};
      id = await inTransaction(deps.knex, (trx) => insertRecord(writeContext(runtime, request, trx), def, values, fixed));
    } catch (error) {
      throw clientErrorFromDb(error, def) ?? error;
    }
    const record = await findRecord(runtime, id, { parentId, includes });
    return reply.code(201).send({ data: runtime.serialize(record), message: def.messages.created });
  };
}
