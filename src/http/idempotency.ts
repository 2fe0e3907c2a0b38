// Idempotency-Key on POST: the first request with a key runs; a repeat with the same key by the
// same user within 24 hours gets the stored status and body without writing again (also from
// another process, and also when both arrive at once: the second waits for the first); the same
// key with another request is a 422. Keys live in the database and expire: an expired key is
// claimed anew, and the periodic clean-up (src/database/housekeeping.ts) deletes the expired ones.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import type { Knex } from 'knex';
import { BadRequestError, HttpError, nowTimestamp, retryConflicts } from '../../engine/index.ts';

const LIFETIME_MS = 24 * 3600 * 1000;
const WAIT_FOR_FIRST_MS = 15_000;
const KEY = /^[\x21-\x7e]{1,255}$/;

declare module 'fastify' {
  interface FastifyRequest {
    /** The idempotency_keys row this request fills with its answer. */
    idempotencyKeyId?: number;
  }
}

/** Adds the hooks to the POST routes under `prefix` registered from now on; other routes never pay for them. */
export function registerIdempotency(app: FastifyInstance, knex: Knex, prefix: string): void {
  const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined || !request.authUser) return;
    const key = Array.isArray(header) ? header[0]! : header;
    if (!KEY.test(key)) throw new BadRequestError('The Idempotency-Key header must be 1 to 255 visible ASCII characters.');
    const hash = createHash('sha256')
      .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
      .digest('hex');
    const userId = request.authUser.id;
    const started = Date.now();
    for (;;) {
      const claimed = await claim(knex, userId, key, hash);
      if (claimed !== undefined) {
        request.idempotencyKeyId = claimed;
        return;
      }
      const stored = await knex('idempotency_keys').where({ user_id: userId, key }).first();
      if (!stored) continue; // removed meanwhile: claim it again
      if (stored.expires_at < nowTimestamp()) {
        await retryConflicts(() => knex('idempotency_keys').where({ id: stored.id }).where('expires_at', '<', nowTimestamp()).delete());
        continue;
      }
      if (stored.request_hash !== hash) throw new HttpError(422, 'This Idempotency-Key was already used with another request.');
      if (stored.status_code !== null) return replay(reply, stored);
      if (Date.now() - started > WAIT_FOR_FIRST_MS) throw new HttpError(409, 'A request with this Idempotency-Key is still running. Retry later.');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  // The answer is kept for the repeats; a server fault is not, so that a retry runs again.
  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (request.idempotencyKeyId === undefined) return payload;
    const id = request.idempotencyKeyId;
    request.idempotencyKeyId = undefined;
    if (reply.statusCode >= 500) await retryConflicts(() => knex('idempotency_keys').where('id', id).delete());
    else
      await retryConflicts(() =>
        knex('idempotency_keys')
          .where('id', id)
          .update({ status_code: reply.statusCode, response_body: typeof payload === 'string' ? payload : '' }),
      );
    return payload;
  };

  app.addHook('onRoute', (route) => {
    if (![route.method].flat().includes('POST') || !route.url.startsWith(prefix)) return;
    // First of the route's own hooks, where the app-level ones ran.
    route.preHandler = [preHandler as preHandlerHookHandler, ...[route.preHandler ?? []].flat()];
    route.onSend = [onSend as onSendHookHandler, ...[route.onSend ?? []].flat()];
  });
}

/** Inserts the key for this request; undefined when it exists (expired or not). */
async function claim(knex: Knex, userId: number, key: string, hash: string): Promise<number | undefined> {
  const now = nowTimestamp();
  try {
    const [id] = await retryConflicts(() =>
      knex('idempotency_keys').insert({
        user_id: userId,
        key,
        request_hash: hash,
        created_at: now,
        expires_at: `${new Date(Date.now() + LIFETIME_MS).toISOString().slice(0, 23).replace('T', ' ')}000`,
      }),
    );
    return Number(id);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE') return undefined;
    throw error;
  }
}

function replay(reply: FastifyReply, stored: Record<string, any>): FastifyReply {
  return reply.code(Number(stored.status_code)).header('content-type', 'application/json; charset=utf-8').header('idempotent-replayed', 'true').send(stored.response_body);
}

/** Deletes the keys past their 24 hours (the periodic clean-up's job); returns how many went. */
export async function deleteExpiredIdempotencyKeys(knex: Knex): Promise<number> {
  return knex('idempotency_keys').where('expires_at', '<', nowTimestamp()).delete();
}
