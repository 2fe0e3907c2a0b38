// Reading the change feed as a user: the changes after a position of the resources the user may
// list, with the company scope of their lists. GET /changes answers with it, and the webhook worker
// reads with it as each subscription's creator, so that both see the same changes.
import type { AuthUser } from '../behaviours/types.ts';
import type { EngineDeps } from '../contract/index.ts';
import type { ResourceDef } from '../definition/types.ts';
import { changesAfter, type ScopedFeed } from '../sql/change-log.ts';
import { rowScopeConditions } from '../sql/resource-rows.ts';
import { CHANGE_FEED, POSITIONS_PER_BATCH, assignPositions, positionsPending } from './sequencer.ts';

/** A change as the feed shows it. */
export interface FeedChange {
  cursor: string;
  resource: string;
  record_id: number;
  kind: string;
  record: Record<string, unknown>;
  changed: string[] | null;
  user_id: number | null;
  request_id: string | null;
  occurred_at: string;
}

export interface FeedPage {
  data: FeedChange[];
  next_cursor: string;
  has_more: boolean;
}

type FeedDeps = Pick<EngineDeps, 'knex' | 'statements' | 'registry' | 'policy'>;

/** The resources of the feed: those that can be listed. */
export function feedResources(deps: Pick<EngineDeps, 'registry'>): ResourceDef[] {
  return deps.registry.all().filter((def) => def.operations.has('list'));
}

/** Whether the user may read this resource's changes: whether they may list it. */
export function mayReadChanges(deps: Pick<EngineDeps, 'policy'>, user: AuthUser, def: ResourceDef): boolean {
  return deps.policy.authorize(user, { def, operation: 'list', permissions: def.access.permissions.list ?? [] });
}

/** The first position still kept: a cursor below it has lost changes to retention. */
export async function oldestCursor(deps: Pick<EngineDeps, 'knex'>): Promise<bigint> {
  const feed = await deps.knex(CHANGE_FEED).where('id', 1).first('purged_through');
  return BigInt(feed.purged_through);
}

/** The newest position given (after giving the committed changes theirs). */
export async function newestCursor(deps: Pick<EngineDeps, 'knex'>): Promise<string> {
  while ((await positionsPending(deps.knex)) && (await assignPositions(deps.knex)) === POSITIONS_PER_BATCH);
  const feed = await deps.knex(CHANGE_FEED).where('id', 1).first('last_seq');
  return String(feed.last_seq);
}

/** Up to `limit` changes after `after` of `defs` (which the user may list), in feed order. */
export async function readChanges(deps: FeedDeps, user: AuthUser, defs: readonly ResourceDef[], after: string, limit: number): Promise<FeedPage> {
  // Committed changes get their positions when a reader asks, one batch at a time: while a
  // batch was full, more may wait, and the answer says there is more.
  const positioned = (await positionsPending(deps.knex)) ? await assignPositions(deps.knex) : 0;
  if (defs.length === 0) return { data: [], next_cursor: after, has_more: false };
  const scoped: ScopedFeed[] = [];
  const unscoped: string[] = [];
  for (const def of defs) {
    const scope = deps.policy.rowScope(user, def);
    if (!scope) {
      unscoped.push(def.name);
      continue;
    }
    scoped.push({
      resource: def.name,
      table: def.table,
      // The list's company scope, on the value the record had when it changed.
      company: scope.company,
      // The record scope on reads (who a record names) is not kept with a change: the changes shown
      // are those of records the user may see now.
      named: scope.visibleTo ? rowScopeConditions(def, { visibleTo: scope.visibleTo }) : [],
    });
  }
  const rows = await changesAfter(deps.statements, after, scoped, unscoped, limit + 1);
  const page = rows.slice(0, limit);
  return {
    data: page.map((row) => ({
      cursor: String(row.seq),
      resource: String(row.resource),
      record_id: Number(row.record_id),
      kind: String(row.kind),
      record: JSON.parse(String(row.record)),
      changed: row.changed === null ? null : JSON.parse(String(row.changed)),
      user_id: row.user_id === null ? null : Number(row.user_id),
      request_id: row.request_id === null ? null : String(row.request_id),
      occurred_at: `${String(row.created_at).replace(' ', 'T')}Z`,
    })),
    next_cursor: page.length > 0 ? String(page.at(-1)!.seq) : after,
    has_more: rows.length > limit || positioned === POSITIONS_PER_BATCH,
  };
}
