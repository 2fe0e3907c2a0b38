// Retention of the change feed: changes older than the retention go, in position order, and the
// feed remembers the last position it dropped (change_feed.purged_through), so that a cursor
// older than what is kept answers 410 instead of skipping what it never saw.
import type { Knex } from 'knex';
import { retryConflicts } from '../sql/retry.ts';
import { CHANGE_LOG } from './record-changes.ts';
import { assignPositions, CHANGE_FEED, POSITIONS_PER_BATCH } from './sequencer.ts';

/** Deletes the positioned changes older than `before` (a stored timestamp); returns how many went. */
export async function purgeChanges(knex: Knex, before: string): Promise<number> {
  // Changes nobody read yet have no position: give them theirs, so that what goes is counted.
  while ((await assignPositions(knex)) === POSITIONS_PER_BATCH);
  return retryConflicts(() =>
    knex.transaction(async (trx) => {
      await trx(CHANGE_FEED)
        .where('id', 1)
        .update({ purged_through: trx.ref('purged_through') });
      const feed = await trx(CHANGE_FEED).where('id', 1).first('purged_through', 'last_seq');
      const through = await lastOlderThan(trx, Number(feed.purged_through), Number(feed.last_seq), before);
      if (through <= Number(feed.purged_through)) return 0;
      const removed = await trx(CHANGE_LOG).where('seq', '<=', through).delete();
      await trx(CHANGE_FEED).where('id', 1).update({ purged_through: through });
      return Number(removed);
    }),
  );
}

/**
 * The newest position whose change is older than `before`, searched between the last position
 * purged and the last given (every position between is kept, and times grow with positions, give
 * or take the commits of one instant): a few lookups by position, where a search by time would need
 * an index that every write pays for.
 */
async function lastOlderThan(trx: Knex.Transaction, purged: number, last: number, before: string): Promise<number> {
  let low = purged;
  let high = last;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const change = await trx(CHANGE_LOG).where('seq', middle).first('created_at');
    if (change && String(change.created_at) < before) low = middle;
    else high = middle - 1;
  }
  return low;
}
