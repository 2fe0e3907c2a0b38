// The API reference of GET /changes (engine/routes/changes.ts): the operation, its envelope, and
// the change, whose `record` is the record schema of its resource.
import type { Registry } from '../definition/registry.ts';
import type { NameTable } from '../definition/names.ts';
import { ref, SHARED, type JsonSchema } from '../serialize/response-schemas.ts';
import { CHANGES_PATH, DEFAULT_CHANGES, MAX_CHANGES } from '../routes/changes.ts';
import { rateLimitHeaders } from './shared-components.ts';

export const CHANGES_TAG = 'Change feed';

export function changeFeedDocs(registry: Registry, names: NameTable, prefix: string) {
  const listable = registry.all().filter((def) => def.operations.has('list'));
  const change: JsonSchema = {
    type: 'object',
    description: 'One committed change of one record.',
    properties: {
      cursor: { type: 'string', description: 'Its position in the feed: pass it as `after` to read what came after it.' },
      resource: { type: 'string', enum: listable.map((def) => def.name) },
      record_id: { type: 'integer' },
      kind: {
        type: 'string',
        description: '`created`, `updated`, `deleted`, `restored`, `force_deleted`, or a workflow action’s (`validated`, `confirmed`, ...).',
      },
      record: {
        description: 'The record as the API shows it after the change (a deletion: its last state), in its resource’s schema.',
        anyOf: listable.map((def) => ref(names.get(def.name)!.schema)),
      },
      changed: { type: ['array', 'null'], items: { type: 'string' }, description: 'An update’s changed fields; null for other kinds.' },
      user_id: { type: ['integer', 'null'], description: 'Who made the change.' },
      request_id: { type: ['string', 'null'], description: 'The request that made it (its X-Request-Id).' },
      occurred_at: { type: 'string', format: 'date-time' },
    },
    required: ['cursor', 'resource', 'record_id', 'kind', 'record', 'changed', 'user_id', 'request_id', 'occurred_at'],
    additionalProperties: false,
  };
  const page: JsonSchema = {
    type: 'object',
    properties: {
      data: { type: 'array', items: ref('Change') },
      next_cursor: { type: 'string', description: 'Where to continue: `after` of the next request.' },
      has_more: { type: 'boolean', description: 'Whether more changes are there already (read again at once), or not (poll later).' },
    },
    required: ['data', 'next_cursor', 'has_more'],
    additionalProperties: false,
  };
  const json = (schema: JsonSchema, example: unknown) => ({ 'application/json': { schema, example } });
  return {
    tag: {
      name: CHANGES_TAG,
      description:
        'Every committed change of every listed resource, in commit order, read with a cursor: follow `next_cursor` and nothing is missed or seen twice, whatever the number of processes writing.',
    },
    schemas: { Change: change, ChangePage: page },
    paths: {
      [`${prefix}${CHANGES_PATH}`]: {
        get: {
          tags: [CHANGES_TAG],
          summary: 'Read the change feed',
          operationId: 'changesList',
          description: `The changes after \`after\`, oldest first, of the resources the caller may list (\`view_any_…\`), with their lists’ company scope. A change is in the feed once its write committed; the changes of one record come in the order they were committed.`,
          parameters: [
            {
              name: 'after',
              in: 'query',
              required: false,
              description: 'A cursor this feed gave (`next_cursor`, or a change’s `cursor`); 0 or none: from the oldest change kept.',
              schema: { type: 'string', pattern: '^[0-9]+$' },
            },
            {
              name: 'resources',
              in: 'query',
              required: false,
              description: 'Comma-separated resource names (`sales/orders,inventories/deliveries`); none: every resource the caller may list.',
              schema: { type: 'string' },
            },
            {
              name: 'limit',
              in: 'query',
              required: false,
              description: `Changes per answer, 1 to ${MAX_CHANGES}.`,
              schema: { type: 'integer', minimum: 1, maximum: MAX_CHANGES, default: DEFAULT_CHANGES },
            },
          ],
          responses: {
            200: {
              description: 'The next changes, and the cursor to continue from.',
              headers: rateLimitHeaders(),
              content: json(ref('ChangePage'), { data: [], next_cursor: '0', has_more: false }),
            },
            400: {
              description: 'A malformed cursor or limit, or an unknown resource.',
              content: json(ref(SHARED.error), { message: 'The limit must be a whole number from 1 to 1000.' }),
            },
            401: { $ref: '#/components/responses/Unauthenticated' },
            403: { $ref: '#/components/responses/Forbidden' },
            410: {
              description: 'The cursor is older than what the feed keeps (CHANGES_RETENTION): list the resources again, then follow the feed.',
              content: json(ref(SHARED.error), {
                message: 'Changes after this cursor are no longer kept: resync (list the resources again), then follow the feed from the cursor of the newest change.',
              }),
            },
            429: { $ref: '#/components/responses/TooManyRequests' },
            500: { $ref: '#/components/responses/ServerError' },
            503: { $ref: '#/components/responses/ServiceUnavailable' },
          },
        },
      },
    },
  };
}
