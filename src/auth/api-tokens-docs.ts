// The API reference of the API token routes (src/auth/api-tokens.ts), merged into src/http/api-docs.ts.
import { IDEMPOTENCY_KEY, rateLimitHeaders, schemaRef as ref, SHARED_SCHEMAS as SHARED, type ServiceDocs } from '../../engine/index.ts';
import { API_TOKENS_PATH, MAX_ABILITIES } from './api-tokens.ts';

export const API_TOKENS_TAG = 'Security / API tokens';

export function apiTokenDocs(prefix: string): ServiceDocs {
  const json = (schema: object, example: unknown) => ({ 'application/json': { schema, example } });
  const common = {
    401: { $ref: '#/components/responses/Unauthenticated' },
    429: { $ref: '#/components/responses/TooManyRequests' },
    500: { $ref: '#/components/responses/ServerError' },
    503: { $ref: '#/components/responses/ServiceUnavailable' },
  };
  const example = {
    id: 1,
    name: 'Shop sync',
    abilities: ['view_any_inventory_product', 'view_inventory_product'],
    expires_at: null,
    last_used_at: '2025-01-31T09:35:00.000000Z',
    created_at: '2025-01-31T09:30:00.000000Z',
    updated_at: '2025-01-31T09:30:00.000000Z',
  };
  const timestamp = { type: ['string', 'null'], format: 'date-time' };
  return {
    tags: [
      {
        name: API_TOKENS_TAG,
        description:
          'Long-lived tokens for integration scripts. A token may use only the abilities (permission names) it was issued with, and only while its user still holds them. Any user manages their own tokens.',
        group: 'Security',
      },
    ],
    schemas: {
      ApiToken: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          name: { type: 'string' },
          abilities: { type: 'array', items: { type: 'string' }, description: 'Permission names the token may use.' },
          expires_at: { ...timestamp, description: 'None: the token lives until it is revoked.' },
          last_used_at: { ...timestamp, description: 'Updated at most once a minute.' },
          created_at: timestamp,
          updated_at: timestamp,
        },
        required: ['id', 'name', 'abilities', 'expires_at', 'last_used_at', 'created_at', 'updated_at'],
        additionalProperties: false,
      },
      ApiTokenRequest: {
        type: 'object',
        properties: {
          name: { type: 'string', maxLength: 255, description: 'Required. What the token is for.' },
          abilities: {
            type: 'array',
            items: { type: 'string' },
            minItems: 1,
            maxItems: MAX_ABILITIES,
            description: 'Required. Permission names (`GET /security/permissions`), each one the caller holds (else 403).',
          },
          expires_at: { type: ['string', 'null'], format: 'date-time', description: 'A moment in the future; none: the token never expires.' },
        },
        required: ['name', 'abilities'],
      },
      ApiTokenCreated: {
        type: 'object',
        properties: {
          data: ref('ApiToken'),
          token: { type: 'string', description: 'The secret: send it as `Authorization: Bearer <token>`. Shown this once; only its hash is stored.' },
          message: { type: 'string' },
        },
        required: ['data', 'token', 'message'],
        additionalProperties: false,
      },
      ApiTokenList: {
        type: 'object',
        properties: { data: { type: 'array', items: ref('ApiToken') } },
        required: ['data'],
        additionalProperties: false,
      },
    },
    paths: {
      [`${prefix}${API_TOKENS_PATH}`]: {
        get: {
          tags: [API_TOKENS_TAG],
          summary: 'List your API tokens',
          description: "The caller's tokens, oldest first, never with their secret.",
          operationId: 'listApiTokens',
          responses: { 200: { description: 'The tokens.', headers: rateLimitHeaders(), content: json(ref('ApiTokenList'), { data: [example] }) }, ...common },
        },
        post: {
          tags: [API_TOKENS_TAG],
          summary: 'Issue an API token',
          description: 'Issues a token for the caller, limited to the abilities given. The secret is in `token`, shown once.',
          operationId: 'createApiToken',
          parameters: [IDEMPOTENCY_KEY],
          requestBody: { required: true, content: json(ref('ApiTokenRequest'), { name: 'Shop sync', abilities: example.abilities }) },
          responses: {
            201: {
              description: 'Issued.',
              headers: rateLimitHeaders(),
              content: json(ref('ApiTokenCreated'), {
                data: { ...example, last_used_at: null },
                token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.signature',
                message: 'API token created successfully.',
              }),
            },
            403: { $ref: '#/components/responses/Forbidden' },
            422: {
              description: 'A missing name or abilities, an unknown permission name, or an expiry in the past.',
              content: json(ref(SHARED.validationError), { message: 'The selected abilities.0 is invalid.', errors: { 'abilities.0': ['The selected abilities.0 is invalid.'] } }),
            },
            ...common,
          },
        },
      },
      [`${prefix}${API_TOKENS_PATH}/{id}`]: {
        delete: {
          tags: [API_TOKENS_TAG],
          summary: 'Revoke an API token',
          description: 'The token stops working on the next request, in every process.',
          operationId: 'deleteApiToken',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: {
            200: { description: 'Revoked.', headers: rateLimitHeaders(), content: json(ref(SHARED.message), { message: 'API token revoked successfully.' }) },
            404: { $ref: '#/components/responses/NotFound' },
            ...common,
          },
        },
      },
    },
  };
}
