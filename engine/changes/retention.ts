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
      const feed = await trx(CHANGE_FEED).where('id', 1).first('purged_through');
      const last = await trx(CHANGE_LOG).whereNotNull('seq').where('created_at', '<', before).max({ seq: 'seq' }).first();
      if (last?.seq === null || last?.seq === undefined) return 0;
      const through = Math.max(Number(last.seq), Number(feed.purged_through));
      const removed = await trx(CHANGE_LOG).where('seq', '<=', through).delete();
      await trx(CHANGE_FEED).where('id', 1).update({ purged_through: through });
      return Number(removed);
    }),
  );
}
