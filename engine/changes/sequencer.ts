// Feed positions, given after commit. A change's row id is taken inside its transaction, so a
// transaction that commits late can hold a smaller id than one a consumer has already read; its
// position (`seq`) is therefore given only once it is committed, by one sequencer at a time (the
// change_feed row it updates: a second one waits for the lock, or on a Galera cluster loses
// certification and runs again). Committed rows are numbered in id order, after every position
// given before: a consumer that read up to a position never finds a new change below it, and the
// changes of one record keep their order (a later writer of a record takes its change id after the
// earlier one committed).
import type { Knex } from 'knex';
import { CHANGE_LOG, numberChanges } from '../sql/change-log.ts';
import { retryConflicts } from '../sql/retry.ts';

export const CHANGE_FEED = 'change_feed';
/** Positions given per transaction; the rest wait for the next round. */
export const POSITIONS_PER_BATCH = 1000;

/** Gives the committed changes without a position their positions; returns how many. */
export function assignPositions(knex: Knex): Promise<number> {
  return retryConflicts(() =>
    knex.transaction(async (trx) => {
      // The lock first, taken by a write: the changes read after it include every one committed
      // before it was granted (on SQLite, a transaction that read first could not write after
      // another process's commit).
      await trx(CHANGE_FEED)
        .where('id', 1)
        .update({ last_seq: trx.ref('last_seq') });
      const feed = await trx(CHANGE_FEED).where('id', 1).first('last_seq');
      const ids = (await trx(CHANGE_LOG).whereNull('seq').orderBy('id').limit(POSITIONS_PER_BATCH).pluck('id')).map(Number);
      if (ids.length === 0) return 0;
      const first = Number(feed.last_seq) + 1;
      await numberChanges(trx, ids, first);
      await trx(CHANGE_FEED)
        .where('id', 1)
        .update({ last_seq: first + ids.length - 1 });
      return ids.length;
    }),
  );
}

/** Whether some committed change still waits for its position. */
export async function positionsPending(knex: Knex): Promise<boolean> {
  return (await knex(CHANGE_LOG).whereNull('seq').first('id')) !== undefined;
}
