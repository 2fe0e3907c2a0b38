import { ERROR_MESSAGES } from '../errors/messages.ts';
import { DEFAULT_PER_PAGE, MAX_PAGE, MAX_PER_PAGE } from '../list/parse-list-query.ts';
import { ref, SHARED, type JsonSchema } from '../serialize/response-schemas.ts';

const MESSAGES = ERROR_MESSAGES;

/** The header that makes a POST safe to retry (src/http/idempotency.ts). */
export const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the POST safe to retry: a repeat with the same key by the same user within 24 hours answers the stored status and body (with `Idempotent-Replayed: true`) without writing again; the same key with another request is a 422. 1 to 255 visible ASCII characters.',
  schema: { type: 'string', maxLength: 255 },
};

/** Responses every protected route shares, as components.responses. */
export function sharedResponses(): Record<string, JsonSchema> {
  const error = (description: string, message: string, headers?: Record<string, JsonSchema>) => ({
    description,
    ...(headers && { headers }),
    content: { 'application/json': { schema: ref(SHARED.error), example: { message } } },
  });
  return {
    Unauthenticated: error('No token, or an expired, revoked or invalid one.', MESSAGES.unauthenticated),
    Forbidden: error('The authenticated user may not do this.', MESSAGES.forbidden),
    TooManyRequests: error('Past the rate limit: wait as `Retry-After` says.', MESSAGES.tooManyRequests('1 minute'), {
      'Retry-After': { $ref: '#/components/headers/Retry-After' },
      ...rateLimitHeaders(),
    }),
    ServerError: {
      description: 'An unexpected fault; the details are only in the log, under the request id the body names.',
      content: { 'application/json': { schema: ref(SHARED.error), example: { message: MESSAGES.server, request_id: '7f1c2b5e-8d1a-4c3e-9b6f-2a4d5e6f7a8b' } } },
    },
    ServiceUnavailable: error(
      'The database cannot be reached, or is too busy with concurrent changes, right now: retry after `Retry-After` seconds.',
      MESSAGES.databaseUnavailable,
      {
        'Retry-After': { $ref: '#/components/headers/Retry-After' },
      },
    ),
    PayloadTooLarge: error('The request body is over 1 MiB.', MESSAGES.tooLarge),
    UnsupportedMediaType: error('A request body that is not `application/json`.', MESSAGES.mediaType),
    MethodNotAllowed: error('A known path asked with a method it does not support; `Allow` lists those it does.', MESSAGES.methodNotAllowed('DELETE', ['GET', 'HEAD']), {
      Allow: { $ref: '#/components/headers/Allow' },
    }),
    NotFound: error('No such path, or no such record (also a record under another parent, or a trashed one).', MESSAGES.notFound),
  };
}

export function sharedHeaders(): Record<string, JsonSchema> {
  return {
    'X-RateLimit-Limit': { description: 'Requests allowed per window (per token; per IP before login).', schema: { type: 'integer' } },
    'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
    'X-RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
    'Retry-After': { description: 'Seconds to wait before the next request.', schema: { type: 'integer' } },
    Allow: { description: 'The methods the path supports.', schema: { type: 'string' } },
    'X-Request-Id': {
      description:
        "The request's id: the one the client sent (1 to 128 letters, digits and ._:@-) or a new UUID. Log lines of the request carry it; quote it when reporting a fault.",
      schema: { type: 'string' },
    },
    ETag: {
      description:
        "The record's version (its own fields, includes aside): send it back in If-Match to change the record only if nobody else did, or in If-None-Match to be told it did not change.",
      schema: { type: 'string' },
    },
  };
}

/** The headers every answer of a protected route carries: the rate limit's and the request id. */
export function rateLimitHeaders(): Record<string, JsonSchema> {
  return Object.fromEntries(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id'].map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

export function sharedParameters(): Record<string, JsonSchema> {
  return {
    page: {
      name: 'page',
      in: 'query',
      description: `Page number, from 1 to ${MAX_PAGE}. A page past the last one is empty.`,
      schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 },
    },
    per_page: {
      name: 'per_page',
      in: 'query',
      description: `Records per page: 1 to ${MAX_PER_PAGE} (more is a 422, never a silent clamp).`,
      schema: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE },
    },
  };
}
