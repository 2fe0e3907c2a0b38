// GET /changes: the change feed, read with a cursor. Each answer holds the next changes in feed
// order (`seq`, given after commit: engine/changes/sequencer.ts) of the resources the caller may
// list, with the company scope of their lists, and the cursor to continue from. A cursor from
// before what retention kept answers 410: the consumer must resync, it never gets a silent gap.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { assignPositions, CHANGE_FEED, POSITIONS_PER_BATCH, positionsPending } from '../changes/sequencer.ts';
import { CHANGE_LOG } from '../changes/record-changes.ts';
import type { EngineDeps } from '../contract/index.ts';
import type { ResourceDef } from '../definition/types.ts';
import { BadRequestError, ForbiddenError, HttpError } from '../errors/http-errors.ts';
import { placeholders, quote } from '../sql/quote.ts';

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
  const listable = deps.registry.all().filter((def) => def.operations.has('list'));
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
      const allowed = (def: ResourceDef) => deps.policy.authorize(user, { def, operation: 'list', permissions: def.access.permissions.list ?? [] });
      let defs: ResourceDef[];
      if (query.resources === undefined || query.resources === '') {
        defs = listable.filter(allowed);
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
        if (!defs.every(allowed)) throw new ForbiddenError();
      }

      const feed = await deps.knex(CHANGE_FEED).where('id', 1).first('purged_through');
      if (BigInt(after) < BigInt(feed.purged_through)) {
        throw new HttpError(410, 'Changes after this cursor are no longer kept: resync (list the resources again), then follow the feed from the cursor of the newest change.');
      }
      // Committed changes get their positions when a reader asks, one batch at a time: while a
      // batch was full, more may wait, and the answer says there is more.
      const positioned = (await positionsPending(deps.knex)) ? await assignPositions(deps.knex) : 0;

      if (defs.length === 0) return reply.send({ data: [], next_cursor: after, has_more: false });
      const conditions: string[] = [];
      const params: unknown[] = [after];
      const unscoped: string[] = [];
      for (const def of defs) {
        const scope = deps.policy.rowScope(user, def);
        if (!scope) {
          unscoped.push(def.name);
          continue;
        }
        // The list's company scope, on the value the record had when it changed.
        conditions.push(
          `(${quote('resource')} = ? AND (${quote('row_scope')} IN (${scope.values.length > 0 ? placeholders(scope.values.length) : 'NULL'})${scope.orNull ? ` OR ${quote('row_scope')} IS NULL` : ''}))`,
        );
        params.push(def.name, ...scope.values);
      }
      if (unscoped.length > 0) {
        conditions.push(`${quote('resource')} IN (${placeholders(unscoped.length)})`);
        params.push(...unscoped);
      }
      const rows = await deps.statements.all(
        `SELECT ${['seq', 'resource', 'record_id', 'kind', 'record', 'changed', 'user_id', 'request_id', 'created_at'].map(quote).join(', ')} FROM ${quote(CHANGE_LOG)} WHERE ${quote('seq')} > ? AND (${conditions.join(' OR ')}) ORDER BY ${quote('seq')} LIMIT ?`,
        [...params, limit + 1],
      );
      const page = rows.slice(0, limit);
      return reply.send({
        data: page.map((row) => ({
          cursor: String(row.seq),
          resource: row.resource,
          record_id: Number(row.record_id),
          kind: row.kind,
          record: JSON.parse(row.record),
          changed: row.changed === null ? null : JSON.parse(row.changed),
          user_id: row.user_id === null ? null : Number(row.user_id),
          request_id: row.request_id,
          occurred_at: `${String(row.created_at).replace(' ', 'T')}Z`,
        })),
        next_cursor: page.length > 0 ? String(page.at(-1)!.seq) : after,
        has_more: rows.length > limit || positioned === POSITIONS_PER_BATCH,
      });
    },
  );
}
