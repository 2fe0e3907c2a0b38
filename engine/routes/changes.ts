// GET /changes: the change feed, read with a cursor. Each answer holds the next changes in feed
// order (`seq`, given after commit: engine/changes/sequencer.ts) of the resources the caller may
// list, with the company scope of their lists, and the cursor to continue from. A cursor from
// before what retention kept answers 410: the consumer must resync, it never gets a silent gap.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { feedResources, mayReadChanges, oldestCursor, readChanges } from '../changes/read-changes.ts';
import type { EngineDeps } from '../contract/index.ts';
import type { ResourceDef } from '../definition/types.ts';
import { BadRequestError, ForbiddenError, HttpError } from '../errors/http-errors.ts';

export const CHANGES_PATH = '/changes';
export const DEFAULT_CHANGES = 100;
export const MAX_CHANGES = 1000;
const CURSOR = /^(0|[1-9][0-9]{0,17})$/;

interface ChangesQuery {
  after?: string;
  resources?: string;
  limit?: string;
}

export function registerChangeFeed(app: FastifyInstance, deps: EngineDeps): void {
  const listable = feedResources(deps);
  app.get(
    `${deps.prefix}${CHANGES_PATH}`,
    { onRequest: deps.authenticate, config: { resource: 'changes', operation: 'list' } },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const query = (request.query ?? {}) as ChangesQuery;
      const after = query.after ?? '0';
      if (!CURSOR.test(after)) throw new BadRequestError('The after cursor must be a position this feed gave (a whole number).');
      const limit = query.limit === undefined ? DEFAULT_CHANGES : Number(query.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CHANGES) throw new BadRequestError(`The limit must be a whole number from 1 to ${MAX_CHANGES}.`);
      const user = request.authUser!;
      let defs: ResourceDef[];
      if (query.resources === undefined || query.resources === '') {
        defs = listable.filter((def) => mayReadChanges(deps, user, def));
      } else {
        const names = [
          ...new Set(
            query.resources
              .split(',')
              .map((name) => name.trim())
              .filter(Boolean),
          ),
        ];
        const unknown = names.filter((name) => !listable.some((def) => def.name === name));
        if (unknown.length > 0) throw new BadRequestError(`Unknown resources: ${unknown.join(', ')}. The feed has the resources that can be listed (GET /api/docs names them).`);
        defs = names.map((name) => deps.registry.get(name));
        if (!defs.every((def) => mayReadChanges(deps, user, def))) throw new ForbiddenError();
      }
      if (BigInt(after) < (await oldestCursor(deps))) {
        throw new HttpError(410, 'Changes after this cursor are no longer kept: resync (list the resources again), then follow the feed from the cursor of the newest change.');
      }
      return reply.send(await readChanges(deps, user, defs, after, limit));
    },
  );
}
