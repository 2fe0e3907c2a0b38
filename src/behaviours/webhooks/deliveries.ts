// Replaying a webhook delivery: it becomes the next one its subscription sends (ahead of the
// others, so out of their order), with its attempts counted anew; a paused or disabled
// subscription sends it once switched on again.
import { nowTimestamp, type Action } from '../../../engine/index.ts';

export const replayDelivery: Action = async ({ trx, record }) => {
  const now = nowTimestamp();
  await trx('webhook_deliveries').where('id', record.id).update({ status: 'pending', attempts_count: 0, next_attempt_at: now, replay: true, updated_at: now });
};
