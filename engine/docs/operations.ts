// The OpenAPI operations of the generated routes: one per entry of the route table, with its
// parameters, request body and every response it can give, each with an example.
import type { HTTPMethods } from 'fastify';
import type { Operation } from '../definition/format.ts';
import type { Registry } from '../definition/registry.ts';
import type { FilterDef, ResourceDef } from '../definition/types.ts';
import { ValidationError } from '../errors/http-errors.ts';
import { ERROR_MESSAGES } from '../errors/messages.ts';
import { DEFAULT_PER_PAGE, MAX_PAGE, MAX_PER_PAGE } from '../list/parse-list-query.ts';
import { routeTable, type RouteSpec } from '../routes/route-table.ts';
import { writableFields } from '../schema/body-schemas.ts';
import { messages } from '../validation/messages.ts';
import { createExample, recordExample, updateExample } from './examples.ts';
import { lowerLabel, operationId, withArticle, type NameTable } from './names.ts';
import { listExample, ref, schemaNames, SHARED, type JsonSchema } from './schemas.ts';

export type OperationObject = Record<string, any>;
export type PathItems = Record<string, Record<string, OperationObject>>;

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

/** The request headers an operation takes beside its path and query: retries and optimistic concurrency. */
function conditionalHeaders(op: Operation): JsonSchema[] {
  const header = (name: string, description: string) => ({ name, in: 'header', required: false, description, schema: { type: 'string' } });
  if (op === 'create') return [IDEMPOTENCY_KEY];
  if (op === 'show') return [header('If-None-Match', 'An ETag the client holds: 304 (no body) when the record still has it.')];
  if (op === 'update' || op === 'delete' || op === 'forceDelete')
    return [header('If-Match', 'The ETag the client read: 412 (nothing changed) when the record has another one now. `*` matches any.')];
  return [];
}

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
    ServiceUnavailable: error('The database cannot be reached, or is too busy with concurrent changes, right now: retry after `Retry-After` seconds.', MESSAGES.databaseUnavailable, {
      'Retry-After': { $ref: '#/components/headers/Retry-After' },
    }),
    PayloadTooLarge: error('The request body is over 1 MiB.', MESSAGES.tooLarge),
    UnsupportedMediaType: error('A request body that is not `application/json`.', MESSAGES.mediaType),
    MethodNotAllowed: error(
      'A known path asked with a method it does not support; `Allow` lists those it does.',
      MESSAGES.methodNotAllowed('DELETE', ['GET', 'HEAD']),
      {
        Allow: { $ref: '#/components/headers/Allow' },
      },
    ),
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

const jsonContent = (schema: JsonSchema, example: unknown) => ({ 'application/json': { schema, example } });

/** The paths of every generated route, keyed by OpenAPI path then lower-case method. */
export function resourcePaths(registry: Registry, names: NameTable, prefix: string, order: ResourceDef[]): PathItems {
  const paths: PathItems = {};
  for (const def of order) {
    for (const route of routeTable(def, prefix)) {
      paths[route.path] ??= {};
      paths[route.path]![route.method.toLowerCase()] = resourceOperation(def, route, registry, names);
    }
  }
  return paths;
}

export function resourceOperation(def: ResourceDef, route: RouteSpec, registry: Registry, names: NameTable): OperationObject {
  if (route.action) return actionOperation(def, route, registry, names);
  const resourceNames = names.get(def.name)!;
  const n = schemaNames(resourceNames.schema);
  const op = route.operation as Operation;
  const label = def.label;
  const operation: OperationObject = {
    tags: [resourceNames.tag],
    summary: summary(def, op, route.method, resourceNames.plural),
    description: describe(def, op, route.method),
    operationId: operationId(def, op, route.method),
    'x-permissions': def.access.permissions[op] ?? [],
    parameters: [...pathParameters(def, route), ...queryParameters(def, op), ...conditionalHeaders(op)],
  };
  if (op === 'create' || op === 'update') {
    operation.requestBody = {
      required: op === 'create',
      content: jsonContent(ref(op === 'create' ? n.create : n.update), op === 'create' ? createExample(def, registry) : updateExample(def, registry)),
    };
  }

  const responses: Record<string, JsonSchema> = {};
  const carriesRecord = op === 'show' || op === 'create' || op === 'update' || op === 'restore';
  const success = (status: number, description: string, schema: string, example: unknown) => {
    const headers = carriesRecord ? { ...rateLimitHeaders(), ETag: { $ref: '#/components/headers/ETag' } } : rateLimitHeaders();
    responses[status] = { description, headers, content: jsonContent(ref(schema), example) };
  };
  const record = recordExample(def, registry);
  switch (op) {
    case 'list':
      success(200, `A page of ${label} records.`, n.list, listExample(def, registry));
      break;
    case 'show':
      success(200, `The ${label}.`, n.show, { data: record });
      break;
    case 'create':
      success(201, `Created: the ${label} as stored.`, n.saved, { data: record, message: def.messages.created });
      break;
    case 'update':
      success(200, `Updated: the ${label} as stored.`, n.saved, { data: record, message: def.messages.updated });
      break;
    case 'restore':
      success(200, `Restored: the ${label}.`, n.saved, { data: record, message: def.messages.restored });
      break;
    case 'delete':
      success(200, 'Deleted.', SHARED.message, { message: def.messages.deleted });
      break;
    case 'forceDelete':
      success(200, 'Permanently deleted.', SHARED.message, { message: def.messages.forceDeleted });
      break;
  }

  const error = (status: number, description: string, example: { message: string }) => {
    responses[status] = { description, content: jsonContent(ref(SHARED.error), example) };
  };
  error(400, badRequestDescription(op), { message: badRequestExample(def, op) });
  responses[401] = { $ref: '#/components/responses/Unauthenticated' };
  responses[403] = { $ref: '#/components/responses/Forbidden' };
  if (route.path.includes('{')) {
    error(404, def.parent ? `No such ${label}, or no such parent ${registry.get(def.parent.resource).label}.` : `No such ${label}.`, { message: MESSAGES.notFound });
  }
  if (op === 'create' || op === 'update' || op === 'delete' || op === 'forceDelete') {
    error(409, conflictDescription(op), { message: conflictExample(def, registry, op) });
  }
  if (op === 'create' || op === 'update') {
    responses[413] = { $ref: '#/components/responses/PayloadTooLarge' };
    responses[415] = { $ref: '#/components/responses/UnsupportedMediaType' };
  }
  if (op === 'list') {
    responses[422] = { description: 'A filter value, `page` or `per_page` is not valid.', content: jsonContent(ref(SHARED.validationError), validationExample(def, op)) };
  }
  if (op === 'create' || op === 'update') {
    responses[422] = {
      description: 'The body breaks a field rule (`errors` names each field), or a business rule refuses the change (`message` says why); nothing was written.',
      content: jsonContent({ anyOf: [ref(SHARED.validationError), ref(SHARED.error)] }, validationExample(def, op)),
    };
  }
  if (op === 'delete' || op === 'forceDelete') {
    responses[422] = {
      description: 'A business rule refuses the deletion (`message` says why); nothing was deleted.',
      content: jsonContent(ref(SHARED.error), { message: `The ${lowerLabel(label)} cannot be deleted now.` }),
    };
  }
  if (op === 'show') responses[304] = { description: 'If-None-Match named the current ETag: the record did not change.', headers: { ETag: { $ref: '#/components/headers/ETag' } } };
  if (op === 'update' || op === 'delete' || op === 'forceDelete') {
    error(412, 'If-Match named another ETag: the record changed since it was read. Nothing was changed.', {
      message: 'The record changed since you read it (If-Match): read it again and retry.',
    });
  }
  responses[429] = { $ref: '#/components/responses/TooManyRequests' };
  responses[500] = { $ref: '#/components/responses/ServerError' };
  responses[503] = { $ref: '#/components/responses/ServiceUnavailable' };
  operation.responses = responses;
  return operation;
}

/** POST {id}/<action>: a workflow action, answering with the record it leaves (or creates). */
function actionOperation(def: ResourceDef, route: RouteSpec, registry: Registry, names: NameTable): OperationObject {
  const action = def.actions.get(route.action!)!;
  const result = registry.get(action.result ?? def.name);
  const resultNames = names.get(result.name)!;
  const verb = route.action!.replace(/-/g, ' ');
  const parts = [action.description ? capitalize(action.description) : `The \`${route.action}\` action of ${withArticle(def.label)}.`];
  if (action.when) {
    const conditions = Object.entries(action.when).map(([column, values]) => `\`${column}\` is ${values.map((value) => `\`${value}\``).join(' or ')}`);
    parts.push(`Only when ${conditions.join(' and ')}; otherwise 422 “${action.refused}”.`);
  }
  if (result.name !== def.name) parts.push(`Answers with the ${lowerLabel(result.label)} it creates.`);
  parts.push(accessNote(def, route.action!));
  const record = recordExample(result, registry);
  return {
    tags: [names.get(def.name)!.tag],
    summary: `${capitalize(verb)} ${withArticle(def.label)}`,
    description: parts.join('\n\n'),
    operationId: `${operationId(def, 'show', 'GET').replace(/Show$/, '')}${route.action!.split('-').map(capitalize).join('')}`,
    'x-permissions': def.access.permissions[route.action!] ?? [],
    parameters: [...pathParameters(def, route), ...queryParameters(def, 'show'), IDEMPOTENCY_KEY],
    responses: {
      200: {
        description: action.message,
        headers: { ...rateLimitHeaders(), ETag: { $ref: '#/components/headers/ETag' } },
        content: jsonContent(ref(schemaNames(resultNames.schema).saved), { data: record, message: action.message }),
      },
      400: { description: badRequestDescription('show'), content: jsonContent(ref(SHARED.error), { message: badRequestExample(def, 'show') }) },
      401: { $ref: '#/components/responses/Unauthenticated' },
      403: { $ref: '#/components/responses/Forbidden' },
      404: { description: `No such ${lowerLabel(def.label)}.`, content: jsonContent(ref(SHARED.error), { message: MESSAGES.notFound }) },
      422: {
        description: 'The record’s state does not allow the action, or the stock or data it needs is not there; nothing was changed.',
        content: jsonContent({ anyOf: [ref(SHARED.error), ref(SHARED.validationError)] }, { message: action.refused ?? 'The action cannot be run on this record now.' }),
      },
      429: { $ref: '#/components/responses/TooManyRequests' },
      500: { $ref: '#/components/responses/ServerError' },
      503: { $ref: '#/components/responses/ServiceUnavailable' },
    },
  };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function summary(def: ResourceDef, op: Operation, method: HTTPMethods | string, pluralLabel: string): string {
  const one = withArticle(def.label);
  switch (op) {
    case 'list':
      return `List ${lowerLabel(pluralLabel)}`;
    case 'create':
      return `Create ${one}`;
    case 'show':
      return `Show ${one}`;
    case 'update':
      return method === 'PATCH' ? `Update ${one} (PATCH)` : `Update ${one}`;
    case 'delete':
      return def.softDelete ? `Delete ${one} (restorable)` : `Delete ${one}`;
    case 'restore':
      return `Restore ${one}`;
    case 'forceDelete':
      return `Permanently delete ${one}`;
  }
}

function describe(def: ResourceDef, op: Operation, method: string): string {
  const parts: string[] = [];
  if (def.description) parts.push(def.description);
  switch (op) {
    case 'list':
      parts.push(
        `Paginated (\`page\`, \`per_page\`), sorted by \`${def.defaultSort.map((s) => (s.descending ? '-' : '') + s.name).join(',')}\` unless \`sort\` says otherwise (\`id\` always breaks ties).` +
          (def.softDelete ? ' Soft-deleted records are left out unless `filter[trashed]` asks for them.' : '') +
          ' Unknown filters, sorts or includes answer 400 with the allowed names.',
      );
      break;
    case 'create':
      parts.push(`Answers 201 with the stored record and the message “${def.messages.created}”${def.parent ? ' The record belongs to the parent named in the path.' : ''}`);
      break;
    case 'update':
      parts.push(`Only the fields sent change${method === 'PATCH' ? ' (the same as PUT)' : ''}.`);
      break;
    case 'delete':
      parts.push(def.softDelete ? 'A soft delete: the record is hidden from lists and shows until it is restored.' : 'The record is removed for good.');
      break;
    case 'restore':
      parts.push('Brings a soft-deleted record back; restoring a live record answers the same.');
      break;
    case 'forceDelete':
      parts.push('Removes the record for good, trashed or not. It cannot be restored afterwards.');
      break;
    case 'show':
      if (def.softDelete) parts.push('A soft-deleted record is a 404.');
      break;
  }
  if (def.embed.length > 0) parts.push(`Responses always embed ${def.embed.map((name) => `\`${def.relations.get(name)?.outputKey ?? name}\``).join(' and ')}.`);
  parts.push(accessNote(def, op));
  return parts.join('\n\n');
}

/** Who may call the route: its permissions, and the row scopes that apply. */
function accessNote(def: ResourceDef, op: string): string {
  const names = def.access.permissions[op] ?? [];
  const notes = [`**Permission:** ${names.map((name) => `\`${name}\``).join(' and ')}.`];
  if (def.access.subjectResource !== def.name) notes.push(`(Checked on the parent \`${def.access.subjectResource}\` record.)`);
  if (def.access.companyScope) notes.push("Only records of the user's companies (or of none) are visible, unless the user holds `bypass_company_scope`.");
  if (def.access.owner && op !== 'list' && op !== 'show' && op !== 'create')
    notes.push(`The user's record scope applies to the record's \`${def.access.owner}\` (global, group or individual).`);
  return notes.join(' ');
}

function pathParameters(def: ResourceDef, route: RouteSpec): JsonSchema[] {
  const params: JsonSchema[] = [];
  for (const [, name] of route.path.matchAll(/\{([a-z_]+)\}/g)) {
    const isParent = def.parent && name === def.parent.param;
    params.push({
      name,
      in: 'path',
      required: true,
      description: isParent
        ? `Id of the parent \`${def.parent!.resource}\` record; a missing (or trashed) parent is a 404.`
        : `Id of the ${def.label}${def.parent ? ' (under that parent)' : ''}; anything but digits is a 404.`,
      schema: { type: 'integer', minimum: 0 },
      example: 1,
    });
  }
  return params;
}

function queryParameters(def: ResourceDef, op: Operation): JsonSchema[] {
  const params: JsonSchema[] = [];
  const includes = [...def.allowedIncludes];
  if (includes.length > 0 && op !== 'delete' && op !== 'forceDelete') {
    params.push({
      name: 'include',
      in: 'query',
      description: `Related records to add, comma-separated: ${includes.map((name) => `\`${name}\``).join(', ')}. They appear under the snake_case name.`,
      style: 'form',
      explode: false,
      schema: { type: 'array', items: { type: 'string', enum: includes }, uniqueItems: true },
    });
  }
  if (op !== 'list') return params;
  for (const filter of def.filters.values()) params.push(filterParameter(filter));
  const sorts = def.sorts.flatMap((name) => [name, `-${name}`]);
  params.push({
    name: 'sort',
    in: 'query',
    description: `Sort fields, comma-separated; a leading \`-\` sorts descending. Allowed: ${def.sorts.map((name) => `\`${name}\``).join(', ')}. Default: \`${def.defaultSort.map((s) => (s.descending ? '-' : '') + s.name).join(',')}\`.`,
    style: 'form',
    explode: false,
    schema: { type: 'array', items: { type: 'string', enum: sorts } },
  });
  params.push({ $ref: '#/components/parameters/page' }, { $ref: '#/components/parameters/per_page' });
  return params;
}

const FILTER_KINDS: Record<FilterDef['kind'], string> = {
  exact: 'equals the value',
  partial: 'contains the text (case-insensitive)',
  list: 'is one of the comma-separated values',
  boolean: 'is true or false (`true`, `false`, `1`, `0`)',
  date: 'falls on the day (`YYYY-MM-DD`)',
  trashed: '',
};

function filterParameter(filter: FilterDef): JsonSchema {
  const name = `filter[${filter.name}]`;
  if (filter.kind === 'trashed') {
    return {
      name,
      in: 'query',
      description: `Soft-deleted records: \`${filter.values.join('`, `')}\`. Without it (or with another value) they are left out. Kind: \`trashed\`.`,
      schema: { type: 'string', enum: [...filter.values] },
    };
  }
  const description = `Records whose \`${filter.fieldName}\` ${FILTER_KINDS[filter.kind]}. Kind: \`${filter.kind}\`.`;
  const value = filterValueSchema(filter);
  if (filter.kind === 'list') {
    return { name, in: 'query', description, style: 'form', explode: false, schema: { type: 'array', items: value } };
  }
  return { name, in: 'query', description, schema: value };
}

function filterValueSchema(filter: FilterDef): JsonSchema {
  const field = filter.field!;
  if (filter.kind === 'partial') return { type: 'string' };
  if (filter.kind === 'boolean') return { type: 'boolean' };
  if (filter.kind === 'date') return { type: 'string', format: 'date' };
  switch (field.type) {
    case 'integer':
      return { type: 'integer' };
    case 'number':
    case 'decimal':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    default:
      return field.enum ? { type: 'string', enum: [...field.enum] } : { type: 'string' };
  }
}

function badRequestDescription(op: Operation): string {
  switch (op) {
    case 'list':
      return 'An unknown filter, sort or include (the message lists the allowed ones), or a malformed request.';
    case 'create':
    case 'update':
      return 'Malformed JSON, a body that is not a JSON object, or an unknown include.';
    case 'show':
    case 'restore':
      return 'An unknown include (the message lists the allowed ones), or a malformed request.';
    default:
      return 'A malformed request (bad URL encoding or JSON).';
  }
}

function badRequestExample(def: ResourceDef, op: Operation): string {
  const allowedIncludes = [...def.allowedIncludes].join(', ');
  switch (op) {
    case 'list':
      return `Requested filter(s) \`unknown\` are not allowed. Allowed filter(s) are \`${[...def.filters.keys()].join(', ')}\`.`;
    case 'show':
    case 'restore':
      return `Requested include(s) \`unknown\` are not allowed. Allowed include(s) are \`${allowedIncludes}\`.`;
    case 'create':
    case 'update':
      return MESSAGES.invalidJson;
    default:
      return 'The request URL is not valid.';
  }
}

function conflictDescription(op: Operation): string {
  return op === 'create' || op === 'update' ? 'The write conflicts with a record stored meanwhile.' : 'Other records still refer to this one.';
}

function conflictExample(def: ResourceDef, registry: Registry, op: Operation): string {
  if (op === 'create' || op === 'update') return `The ${def.label} conflicts with an existing record.`;
  const restricting = [...def.relations.values()].find((relation) => relation.kind === 'hasMany' && relation.onDelete === 'restrict');
  if (restricting) {
    return `The ${def.label} cannot be deleted because it still has ${registry.get(restricting.resource).label} records (soft-deleted ones included). Remove them first.`;
  }
  return `The ${def.label} cannot be deleted because other records still refer to it.`;
}

function validationExample(def: ResourceDef, op: Operation): unknown {
  if (op === 'list') return new ValidationError({ per_page: [`The per page field must not be greater than ${MAX_PER_PAGE}.`] }).body();
  const fields = writableFields(def);
  if (op === 'create') {
    const required = fields.filter((field) => field.required);
    if (required.length > 0) return new ValidationError(Object.fromEntries(required.map((field) => [field.name, [messages.required(field)]]))).body();
  }
  const limited = fields.find((field) => field.maxLength !== undefined) ?? fields.find((field) => field.type === 'string' || field.type === 'text');
  if (limited) {
    return new ValidationError({ [limited.name]: [limited.maxLength !== undefined ? messages.maxLength(limited) : messages.string(limited)] }).body();
  }
  const first = fields[0];
  return new ValidationError(first ? { [first.name]: [messages.required(first)] } : { body: ['The given data was invalid.'] }).body();
}
