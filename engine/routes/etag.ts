// Optimistic concurrency: a record's ETag is a hash of its own fields as the API shows them
// (includes aside), sent with show, create, update, restore and action answers. PUT, PATCH and
// DELETE with If-Match answer 412 when the record changed since; GET with If-None-Match answers
// 304 when it did not. Without the headers nothing changes.
import * as crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import type { ResourceDef } from '../definition/types.ts';
import { HttpError, NotFoundError } from '../errors/http-errors.ts';
import { lockRecord } from './lookup.ts';
import type { ResourceRuntime } from './runtime.ts';
import { perDefinition } from '../definition/per-definition.ts';

const ownKeys = perDefinition((def) => [...def.fields.values()].filter((field) => field.output).map((field) => field.name));

/** The weak ETag of a serialized record: its own fields only, so that `include` does not change it. */
export function recordETag(def: ResourceDef, serialized: Record<string, unknown>): string {
  const keys = ownKeys(def);
  const values = new Array(keys.length);
  for (let i = 0; i < keys.length; i++) values[i] = serialized[keys[i]!] ?? null;
  return `W/"${sha1(JSON.stringify(values))}"`;
}

/** Node's one-shot hash where it has it (20.12+): no Hash object per record. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: string) => string }).hash;
const sha1 = oneShot ? (text: string) => oneShot('sha1', text, 'base64url') : (text: string) => crypto.createHash('sha1').update(text).digest('base64url');

/** The tags a conditional header lists (`*` included), without the weak marker. */
function listed(header: string | undefined): string[] | undefined {
  if (header === undefined) return undefined;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .filter(Boolean);
}

/** If-Match: 412 unless the record's current ETag is one of those sent. */
export function assertIfMatch(request: FastifyRequest, etag: string): void {
  const tags = listed(request.headers['if-match'] as string | undefined);
  if (!tags || tags.includes('*') || tags.includes(etag.replace(/^W\//, ''))) return;
  throw new HttpError(412, 'The record changed since you read it (If-Match): read it again and retry.');
}

/**
 * If-Match again inside the write's transaction, on the row locked there. The check before the
 * transaction answers most stale writes without one; this one decides between writers that passed
 * it together: the second to lock the row (on one server), or the one that runs again after its
 * commit lost to another node's (on a Galera cluster), sees the first one's change and gets 412.
 */
export async function assertIfMatchLocked(runtime: ResourceRuntime, request: FastifyRequest, trx: Knex.Transaction, id: number): Promise<void> {
  if (request.headers['if-match'] === undefined) return;
  const locked = await lockRecord(runtime, trx, id);
  if (!locked) throw new NotFoundError();
  assertIfMatch(request, recordETag(runtime.def, runtime.serialize(locked)));
}

/** If-None-Match: true (and a 304 sent) when the client already holds this version. */
export function notModified(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  const tags = listed(request.headers['if-none-match'] as string | undefined);
  if (!tags || !(tags.includes('*') || tags.includes(etag.replace(/^W\//, '')))) return false;
  void reply.code(304).header('etag', etag).send();
  return true;
}
