// Periodic clean-up of rows that only wait to expire: idempotency keys past their 24 hours,
// revocations of tokens that have expired anyway, and changes older than the feed keeps. It runs on a timer in every process (and on
// demand with `npm run erp -- cleanup`), never inside requests: a delete that every request ran
// made rows that every request wrote, which on a Galera cluster conflict between nodes.
import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import { purgeChanges, retryConflicts } from '../../engine/index.ts';
import { deleteExpiredRevocations } from '../auth/tokens.ts';
import { deleteExpiredIdempotencyKeys } from '../http/idempotency.ts';

export interface CleanUpResult {
  idempotencyKeys: number;
  revokedTokens: number;
  changes: number;
}

/** `changesRetentionSeconds`: how long the change feed keeps a change (CHANGES_RETENTION). */
export async function cleanUp(knex: Knex, changesRetentionSeconds: number): Promise<CleanUpResult> {
  const before = `${new Date(Date.now() - changesRetentionSeconds * 1000).toISOString().slice(0, 23).replace('T', ' ')}000`;
  return {
    idempotencyKeys: await retryConflicts(() => deleteExpiredIdempotencyKeys(knex)),
    revokedTokens: await retryConflicts(() => deleteExpiredRevocations(knex)),
    changes: await purgeChanges(knex, before),
  };
}

/**
 * Runs cleanUp every `intervalSeconds` (0: never), at a random point of each interval so that
 * processes started together do not clean up in step. A failed run is logged and left to the next.
 */
export function scheduleCleanUp(app: FastifyInstance, knex: Knex, intervalSeconds: number, changesRetentionSeconds: number): void {
  if (intervalSeconds <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  const next = () => {
    timer = setTimeout(run, intervalSeconds * 1000 * (0.5 + Math.random())).unref();
  };
  const run = async () => {
    try {
      const removed = await cleanUp(knex, changesRetentionSeconds);
      if (removed.idempotencyKeys + removed.revokedTokens + removed.changes > 0) app.log.info(removed, 'expired rows cleaned up');
    } catch (error) {
      app.log.warn({ code: (error as { code?: string }).code, message: (error as Error).message }, 'clean-up failed; it runs again later');
    }
    next();
  };
  app.addHook('onReady', async () => next());
  app.addHook('onClose', async () => clearTimeout(timer));
}
