// The webhook delivery worker. Every tick it takes the lease of the active subscriptions no other
// process holds (a row update: one winner, also across cluster nodes), turns the feed's new changes
// into deliveries (read as the subscription's creator, so a webhook never shows what its creator
// may not list), and sends each subscription's deliveries one at a time in feed order, so that the
// changes of one record arrive in order. A failed attempt is tried again after a growing delay
// with jitter (about a day in all by default); then the delivery fails and the subscription is
// disabled with the reason. A process killed mid-delivery leaves the delivery pending: when its
// lease runs out, another process sends it again (at least once, the same webhook-id each time).
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import type { AuthUser } from '../behaviours/types.ts';
import type { EngineDeps } from '../contract/index.ts';
import { feedResources, mayReadChanges, oldestCursor, readChanges } from '../changes/read-changes.ts';
import { parseStrings } from '../serialize/record.ts';
import { nowTimestamp, storedTimestamp } from '../serialize/value-formats.ts';
import { isWriteConflict } from '../sql/database-errors.ts';
import { sendWebhook } from './send.ts';
import { mayReach, refusal, type TargetScope } from './target-guard.ts';

export interface WebhookWorkerOptions {
  deps: Pick<EngineDeps, 'knex' | 'statements' | 'registry' | 'policy'>;
  /** The user a subscription acts as (its creator), with what they may do; undefined when gone. */
  principalOf(userId: number): Promise<AuthUser | undefined>;
  /** What a target may be besides a public address. */
  targetScope: TargetScope;
  /** How long a receiver has to answer. */
  timeoutMs: number;
  /** The delays before each new attempt, in seconds; after the last, the delivery fails. */
  retryDelays: readonly number[];
  /** How often the worker looks for work. */
  intervalMs: number;
  log: { warn(object: object, message: string): void; info(object: object, message: string): void };
}

/**
 * How long a lease lasts without renewal: a dead process's subscriptions wait this long. It is
 * renewed before each attempt, which lasts at most the timeout, so it outlasts any live attempt.
 */
export function leaseSeconds(timeoutMs: number): number {
  return Math.max(5, Math.ceil((timeoutMs / 1000) * 3));
}
/** Deliveries a subscription keeps ready; more are made as these go. */
const READY = 100;
/** Subscriptions served at once by one process. */
const CONCURRENCY = 4;
/** Deliveries sent for one subscription before its lease is given back for a turn. */
const PER_TURN = 50;

const SUBSCRIPTIONS = 'webhook_subscriptions';
const DELIVERIES = 'webhook_deliveries';
const ATTEMPTS = 'webhook_attempts';

export interface WebhookWorker {
  /** One round: every subscription that has work and no other process serving it. */
  tick(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

export function webhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { knex } = options.deps;
  const owner = randomUUID();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const later = (seconds: number) => storedTimestamp(new Date(Date.now() + seconds * 1000));

  /** Takes (or renews) the subscription's lease; false when another process holds it. */
  async function lease(id: number): Promise<boolean> {
    try {
      const taken = await knex(SUBSCRIPTIONS)
        .where('id', id)
        .where('is_active', true)
        .where((query) => query.whereNull('lease_until').orWhere('lease_until', '<', nowTimestamp()).orWhere('lease_owner', owner))
        .update({ lease_owner: owner, lease_until: later(leaseSeconds(options.timeoutMs)) });
      return Number(taken) === 1;
    } catch (error) {
      if (isWriteConflict(error)) return false; // another node's process took it at the same time
      throw error;
    }
  }

  async function release(id: number): Promise<void> {
    await knex(SUBSCRIPTIONS).where({ id, lease_owner: owner }).update({ lease_owner: null, lease_until: null });
  }

  async function disable(id: number, reason: string): Promise<void> {
    const now = nowTimestamp();
    await knex(SUBSCRIPTIONS)
      .where('id', id)
      .update({ is_active: false, disabled_reason: reason.slice(0, 255), disabled_at: now, updated_at: now });
    options.log.warn({ webhook: id, reason }, 'webhook disabled');
  }

  /** Turns the feed's changes after the subscription's cursor into deliveries, while few are ready. */
  async function fill(subscription: Record<string, any>): Promise<boolean> {
    const ready = Number((await knex(DELIVERIES).where({ subscription_id: subscription.id, status: 'pending' }).count({ n: '*' }).first())!.n);
    if (ready >= READY) return true;
    const creator = await options.principalOf(Number(subscription.creator_id));
    if (!creator) {
      await disable(subscription.id, 'Its creator no longer exists: create the webhook again as another user.');
      return false;
    }
    if (BigInt(subscription.cursor) < (await oldestCursor(options.deps))) {
      await disable(subscription.id, `The changes after position ${subscription.cursor} are no longer kept: resync the receiver, then create the webhook again.`);
      return false;
    }
    const wanted = parseStrings(subscription.resources);
    const kinds = new Set(parseStrings(subscription.kinds));
    const defs = (wanted.length > 0 ? wanted.flatMap((name) => options.deps.registry.all().filter((def) => def.name === name)) : feedResources(options.deps)).filter(
      (def) => def.operations.has('list') && mayReadChanges(options.deps, creator, def),
    );
    const page = await readChanges(options.deps, creator, defs, String(subscription.cursor), READY - ready);
    if (page.next_cursor === String(subscription.cursor)) return true;
    const now = nowTimestamp();
    const rows = page.data
      .filter((change) => kinds.size === 0 || kinds.has(change.kind))
      .map((change) => ({
        subscription_id: subscription.id,
        message_id: `msg_${change.cursor}`,
        change_cursor: change.cursor,
        resource: change.resource,
        record_id: change.record_id,
        kind: change.kind,
        payload: JSON.stringify({ type: `${change.resource}.${change.kind}`, timestamp: change.occurred_at, data: change }),
        status: 'pending',
        attempts_count: 0,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      }));
    await knex.transaction(async (trx) => {
      // Only while the lease is still this process's and nobody moved the cursor meanwhile.
      const moved = await trx(SUBSCRIPTIONS)
        .where({ id: subscription.id, cursor: String(subscription.cursor), lease_owner: owner })
        .update({ cursor: page.next_cursor });
      if (Number(moved) !== 1) return;
      for (let i = 0; i < rows.length; i += 100) await trx(DELIVERIES).insert(rows.slice(i, i + 100));
    });
    return true;
  }

  /** Sends the subscription's next deliveries, in order, until one must wait or the turn ends. */
  async function deliver(subscription: Record<string, any>): Promise<void> {
    for (let sent = 0; sent < PER_TURN && !stopped; sent++) {
      const next = await knex(DELIVERIES)
        .where({ subscription_id: subscription.id, status: 'pending' })
        .orderBy([
          { column: 'replay', order: 'desc' },
          { column: 'id', order: 'asc' },
        ])
        .first();
      if (!next) return;
      if (next.next_attempt_at && String(next.next_attempt_at) > nowTimestamp()) return; // its retry is not due: the later ones wait behind it
      if (!(await lease(subscription.id))) return;
      const started = Date.now();
      const startedAt = nowTimestamp();
      const target = new URL(subscription.url);
      const host = target.hostname.replace(/^\[|\]$/g, '');
      const outcome =
        isIP(host) && !mayReach(host, options.targetScope)
          ? { status: undefined, error: refusal(host) }
          : await sendWebhook({
              url: subscription.url,
              secret: subscription.secret,
              messageId: next.message_id,
              payload: next.payload,
              timeoutMs: options.timeoutMs,
              scope: options.targetScope,
            });
      const duration = Date.now() - started;
      const attempts = Number(next.attempts_count) + 1;
      const succeeded = outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;
      const exhausted = !succeeded && attempts > options.retryDelays.length;
      await knex.transaction(async (trx) => {
        await trx(ATTEMPTS).insert({
          delivery_id: next.id,
          started_at: startedAt,
          duration_ms: duration,
          response_code: outcome.status ?? null,
          error: outcome.error?.slice(0, 255) ?? null,
        });
        await trx(DELIVERIES)
          .where('id', next.id)
          .update({
            status: succeeded ? 'succeeded' : exhausted ? 'failed' : 'pending',
            attempts_count: attempts,
            next_attempt_at: succeeded || exhausted ? null : later(jittered(options.retryDelays[attempts - 1]!)),
            last_response_code: outcome.status ?? null,
            replay: false,
            updated_at: nowTimestamp(),
          });
      });
      if (exhausted) {
        await disable(
          subscription.id,
          `Delivery ${next.message_id} failed ${attempts} times (last: ${outcome.status ? `HTTP ${outcome.status}` : outcome.error}). Fix the receiver, then set is_active: true.`,
        );
        return;
      }
      if (!succeeded) return; // the deliveries after it wait for its retry
    }
  }

  async function serve(subscription: Record<string, any>): Promise<void> {
    if (!(await lease(subscription.id))) return;
    try {
      if (await fill(subscription)) await deliver(await knex(SUBSCRIPTIONS).where('id', subscription.id).first());
    } finally {
      await release(subscription.id);
    }
  }

  async function tick(): Promise<void> {
    const due = await knex(SUBSCRIPTIONS)
      .where('is_active', true)
      .where((query) => query.whereNull('lease_until').orWhere('lease_until', '<', nowTimestamp()))
      .orderBy('id')
      .select('*');
    for (let i = 0; i < due.length && !stopped; i += CONCURRENCY) {
      await Promise.all(
        due
          .slice(i, i + CONCURRENCY)
          .map((subscription) =>
            serve(subscription).catch((error) =>
              options.log.warn({ webhook: subscription.id, code: (error as { code?: string }).code, message: (error as Error).message }, 'webhook round failed; it runs again'),
            ),
          ),
      );
    }
  }

  const loop = () => {
    if (stopped) return;
    running = tick()
      .catch((error) => options.log.warn({ message: (error as Error).message }, 'webhook worker round failed'))
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(loop, options.intervalMs).unref();
      });
  };

  return {
    tick,
    start() {
      stopped = false;
      timer = setTimeout(loop, options.intervalMs).unref();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** The delay, give or take a fifth, so that receivers coming back are not hit by every retry at once. */
function jittered(seconds: number): number {
  return seconds * (0.8 + Math.random() * 0.4);
}
