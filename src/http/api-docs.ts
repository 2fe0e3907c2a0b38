// The API reference of this service: the engine's document of the generated routes, plus the
// routes the app adds itself (login, logout, health and the reference's own pages), served at
// /api/docs, printed by `erp openapi` and written to docs/api.md by `erp docs:markdown`.
import type { FastifyInstance } from 'fastify';
import {
  buildMarkdown,
  buildOpenApiDocument,
  buildPostmanCollection,
  conventions,
  ERROR_MESSAGES,
  pageDocuments,
  rateLimitHeaders,
  registerDocsRoutes,
  schemaRef as ref,
  SHARED_SCHEMAS as SHARED,
  type OpenApiDocument,
  type PostmanCollection,
  type Registry,
  type ServiceDocs,
} from '../../engine/index.ts';

import { apiTokenDocs } from '../auth/api-tokens-docs.ts';

export const DOCS_PREFIX = '/api/docs';
export const MARKDOWN_FILE = 'docs/api.md';
export const MARKDOWN_COMMAND = 'npm run erp -- docs:markdown --write';

const TITLE = 'ERP administration API';

function introduction(prefix: string): string {
  return `The administration API of the ERP: JSON over HTTP under \`${prefix}\`.

## Getting a token

1. \`POST ${prefix}/login\` with \`{"email": "...", "password": "..."}\` answers \`{message, token, token_type: "Bearer", user}\`.
2. Send \`Authorization: Bearer <token>\` on every other call (here: **Authorize**, then **Try it out**).
3. \`POST ${prefix}/logout\` revokes the token.

Send \`Accept: application/json\` and, with a body, \`Content-Type: application/json\`.

${conventions(prefix)}`;
}

/** Login, logout, health and the reference itself: the routes the app adds beside the registry's. */
function serviceDocs(prefix: string): ServiceDocs {
  const json = (schema: object, example: unknown) => ({ 'application/json': { schema, example } });
  const error = (description: string, message: string) => ({ description, content: json(ref(SHARED.error), { message }) });
  const loginExample = { email: 'admin@example.com', password: 'secret-password' };
  const user = { id: 1, name: 'Administrator', email: 'admin@example.com' };
  const anyJson = { type: 'object', additionalProperties: true };
  const docsRoute = (operationId: string, summary: string, description: string, content: Record<string, unknown>) => ({
    tags: ['Documentation'],
    summary,
    description,
    operationId,
    security: [],
    responses: { 200: { description: summary, content } },
  });

  const moduleSummary = 'One module, as the page loads it';
  const moduleRoute = docsRoute(
    'docsModule',
    moduleSummary,
    'The operations of one module (`support`, `keeping-in-sync`, …) and the components they use, in OpenAPI 3.0 form, related records by their own fields: what the interactive page shows, one module at a time. The complete document is `openapi.json`.',
    json(anyJson, { openapi: '3.0.3' }),
  );
  Object.assign(moduleRoute, {
    parameters: [
      {
        name: 'module',
        in: 'path',
        required: true,
        description: 'The module, as the page’s selector names it: lower case, dashes.',
        schema: { type: 'string' },
        example: 'support',
      },
    ],
    responses: { ...moduleRoute.responses, 404: { $ref: '#/components/responses/NotFound' } },
  });

  return {
    tags: [
      { name: 'Authentication', description: 'Log in for a bearer token; log out to revoke it.', group: 'Service' },
      { name: 'Health', description: 'For load balancers: no token, not rate limited.', group: 'Service' },
      { name: 'Documentation', description: 'This reference, as a page, an OpenAPI 3.1 document and a Postman collection. No token.', group: 'Service' },
    ],
    schemas: {
      LoginRequest: {
        type: 'object',
        properties: {
          email: { type: 'string', format: 'email', description: 'Required. Compared without regard to case.' },
          password: { type: 'string', description: 'Required.' },
        },
        required: ['email', 'password'],
      },
      AuthUser: {
        type: 'object',
        properties: { id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string' } },
        required: ['id', 'name', 'email'],
        additionalProperties: false,
      },
      LoginResponse: {
        type: 'object',
        properties: {
          message: { type: 'string', const: 'Login successful' },
          token: { type: 'string', description: 'A JWT; send it as `Authorization: Bearer <token>`.' },
          token_type: { type: 'string', const: 'Bearer' },
          user: ref('AuthUser'),
        },
        required: ['message', 'token', 'token_type', 'user'],
        additionalProperties: false,
      },
      Health: {
        type: 'object',
        properties: {
          status: { type: 'string', enum: ['ok', 'unavailable', 'overloaded'] },
          message: { type: 'string' },
          pressure: {
            type: 'object',
            description: 'What load shedding watches (MAX_EVENT_LOOP_DELAY_MS, MAX_HEAP_USED_MB, MAX_RSS_MB).',
            properties: { overloaded: { type: 'boolean' }, event_loop_delay_ms: { type: ['number', 'null'] }, heap_used_mb: { type: 'number' }, rss_mb: { type: 'number' } },
          },
        },
        required: ['status'],
        additionalProperties: false,
      },
    },
    paths: {
      [`${prefix}/login`]: {
        post: {
          tags: ['Authentication'],
          summary: 'Log in',
          description: 'Exchanges an e-mail and password for a bearer token. Attempts are limited per e-mail and IP (`LOGIN_RATE_LIMIT_MAX` a minute).',
          operationId: 'login',
          security: [],
          requestBody: { required: true, content: json(ref('LoginRequest'), loginExample) },
          responses: {
            200: {
              description: 'The token and its user.',
              headers: rateLimitHeaders(),
              content: json(ref('LoginResponse'), {
                message: 'Login successful',
                token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.signature',
                token_type: 'Bearer',
                user,
              }),
            },
            400: error('Malformed JSON.', ERROR_MESSAGES.invalidJson),
            401: error('Wrong e-mail or password.', 'The provided credentials are incorrect.'),
            413: { $ref: '#/components/responses/PayloadTooLarge' },
            415: { $ref: '#/components/responses/UnsupportedMediaType' },
            422: {
              description: 'A missing or malformed e-mail or password.',
              content: json(ref(SHARED.validationError), { message: 'The email field is required.', errors: { email: ['The email field is required.'] } }),
            },
            429: {
              description: 'Too many attempts for this e-mail from this address.',
              headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
              content: json(ref(SHARED.error), { message: 'Too many login attempts. Retry in 42 seconds.' }),
            },
            500: { $ref: '#/components/responses/ServerError' },
            503: { $ref: '#/components/responses/ServiceUnavailable' },
          },
          // Postman: first of the run, with the collection's variables; keeps the token for the other requests.
          'x-postman': {
            position: 'first',
            body: { email: '{{email}}', password: '{{password}}' },
            prerequest: ['// A suffix of this run for the values that must be unique.', "pm.collectionVariables.set('run', Date.now().toString(36));"],
            test: ["if (pm.response.code === 200) pm.collectionVariables.set('token', pm.response.json().token);"],
          },
        },
      },
      [`${prefix}/logout`]: {
        post: {
          tags: ['Authentication'],
          summary: 'Log out',
          description: 'Revokes the token the request carries, on every process sharing the database. The user’s other tokens keep working.',
          operationId: 'logout',
          'x-postman': { position: 'last' },
          responses: {
            200: { description: 'Revoked.', headers: rateLimitHeaders(), content: json(ref(SHARED.message), { message: 'Logout successful' }) },
            400: error('Malformed JSON.', ERROR_MESSAGES.invalidJson),
            401: { $ref: '#/components/responses/Unauthenticated' },
            413: { $ref: '#/components/responses/PayloadTooLarge' },
            415: { $ref: '#/components/responses/UnsupportedMediaType' },
            429: { $ref: '#/components/responses/TooManyRequests' },
            500: { $ref: '#/components/responses/ServerError' },
            503: { $ref: '#/components/responses/ServiceUnavailable' },
          },
        },
      },
      '/health': {
        get: {
          tags: ['Health'],
          summary: 'Health check',
          description: '200 while the database answers and the process is not overloaded, 503 otherwise; with the pressure it is under.',
          operationId: 'health',
          security: [],
          responses: {
            200: {
              description: 'The service and its database answer.',
              content: json(ref('Health'), { status: 'ok', pressure: { overloaded: false, event_loop_delay_ms: 11.2, heap_used_mb: 48, rss_mb: 160 } }),
            },
            503: {
              description: 'The database does not answer, or the process sheds load.',
              content: json(ref('Health'), { status: 'unavailable', message: 'The database does not answer.' }),
            },
          },
        },
      },
      '/metrics': {
        get: {
          tags: ['Health'],
          summary: 'Metrics',
          description:
            'Prometheus text format: requests and latency per route template and status, rate-limit rejections, the database pool, event-loop lag and memory. Asks for `Authorization: Bearer <METRICS_TOKEN>` when that variable is set.',
          operationId: 'metrics',
          security: [],
          'x-postman': { bearer: 'metricsToken' },
          responses: {
            200: {
              description: 'The metrics.',
              content: { 'text/plain': { schema: { type: 'string' }, example: 'http_requests_total{method="GET",route="/admin/api/v1/support/banks",status_code="200"} 42' } },
            },
            401: error('METRICS_TOKEN is set and the request does not carry it.', ERROR_MESSAGES.unauthenticated),
          },
        },
      },
      [DOCS_PREFIX]: {
        get: docsRoute('docsPage', 'Interactive reference', 'This page: browse every route, authorize with a token and try requests.', {
          'text/html': { schema: { type: 'string' }, example: '<!DOCTYPE html>…' },
        }),
      },
      [`${DOCS_PREFIX}/openapi.json`]: {
        get: docsRoute('docsOpenApi', 'OpenAPI document', 'This document (OpenAPI 3.1), its `servers` naming the host that served it.', json(anyJson, { openapi: '3.1.0' })),
      },
      [`${DOCS_PREFIX}/modules/{module}`]: { get: moduleRoute },
      [`${DOCS_PREFIX}.openapi`]: {
        get: docsRoute(
          'docsOpenApiOriginal',
          'OpenAPI document (original address)',
          'The same document at the address the original installation served it (JSON, which YAML readers read too).',
          json(anyJson, { openapi: '3.1.0' }),
        ),
      },
      [`${DOCS_PREFIX}.postman`]: {
        get: docsRoute(
          'docsPostman',
          'Postman collection',
          'A Postman v2.1 collection of every route, with example bodies; **Log in** stores the token in its `token` variable.',
          json(anyJson, { info: { name: TITLE } }),
        ),
      },
    },
  };
}

export function buildApiDocument(registry: Registry, prefix: string): OpenApiDocument {
  const service = serviceDocs(prefix);
  const tokens = apiTokenDocs(prefix);
  return buildOpenApiDocument(registry, {
    prefix,
    title: TITLE,
    version: 'v1',
    description: introduction(prefix),
    service: { tags: [...service.tags, ...tokens.tags], schemas: { ...service.schemas, ...tokens.schemas }, paths: { ...service.paths, ...tokens.paths } },
    leadingGroups: ['Service'],
  });
}

export function buildApiPostman(registry: Registry, prefix: string): PostmanCollection {
  return buildPostmanCollection(buildApiDocument(registry, prefix), { registry, prefix });
}

export function buildApiMarkdown(registry: Registry, prefix: string): string {
  const document = buildApiDocument(registry, prefix);
  return buildMarkdown(registry, {
    prefix,
    title: `${TITLE} reference`,
    preface: [
      `Generated from the resource definitions (\`resources/\`) by \`${MARKDOWN_COMMAND}\`; do not edit by hand (a test fails when this file is stale).`,
      `A running installation serves the interactive reference at \`${DOCS_PREFIX}\`, the OpenAPI 3.1 document at \`${DOCS_PREFIX}/openapi.json\` and a Postman collection at \`${DOCS_PREFIX}.postman\`.`,
    ].join('\n\n'),
    introduction: conventions(prefix),
    document,
  });
}

export interface RegisteredRoute {
  method: string;
  /** Fastify form: `/a/:id`. */
  url: string;
  /** Routes marked `schema.hide` (the interactive page's own assets). */
  hidden: boolean;
}

const registered = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Records every route the app registers from now on (an onRoute hook). */
export function recordRoutes(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  registered.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, hidden: (route.schema as { hide?: boolean } | undefined)?.hide === true });
  });
}

/** The routes recordRoutes saw, in registration order. */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  return registered.get(app) ?? [];
}

/** Routes the app serves that the document does not describe (HEAD, when GET is documented, and hidden routes excepted). */
export function undocumentedRoutes(routes: RegisteredRoute[], document: OpenApiDocument): string[] {
  const documented = new Set<string>();
  for (const [path, item] of Object.entries<Record<string, unknown>>(document.paths)) {
    for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`);
  }
  return routes
    .filter((route) => !route.hidden)
    .map((route) => ({ method: route.method, path: route.url.replace(/:[A-Za-z0-9_]+/g, '{}') }))
    .filter(({ method, path }) => !documented.has(`${method} ${path}`) && !(method === 'HEAD' && documented.has(`GET ${path}`)))
    .map(({ method, path }) => `${method} ${path}`);
}

/**
 * Serves the reference: GET /api/docs, /api/docs/openapi.json, /api/docs.openapi, /api/docs.postman.
 * The document and the collection are built on the first request for them (~0.1 s and ~8 MB that
 * a process serving only the API never spends); test/docs/served.test.ts checks they cover every route.
 */
export async function registerApiDocs(app: FastifyInstance, registry: Registry, prefix: string): Promise<void> {
  const document = once(() => {
    const built = buildApiDocument(registry, prefix);
    // A route added beside the registry without its entry in serviceDocs() is worth a warning.
    const missing = undocumentedRoutes(registeredRoutes(app), built);
    if (missing.length > 0) app.log.warn({ routes: missing }, 'routes missing from the API reference (src/http/api-docs.ts)');
    return built;
  });
  const postman = once(() => buildPostmanCollection(document(), { registry, prefix }));
  const modules = once(() => pageDocuments(document(), registry, `${DOCS_PREFIX}/openapi.json`));
  await registerDocsRoutes(app, { title: TITLE, document, prefix: DOCS_PREFIX, postman, modules });
}

function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= build();
    return value;
  };
}
