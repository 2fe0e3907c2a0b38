import type { Operation } from '../definition/format.ts';
import type { Registry } from '../definition/registry.ts';
import type { ResourceDef } from '../definition/types.ts';
import { ERROR_MESSAGES } from '../errors/messages.ts';
import { ValidationError } from '../errors/http-errors.ts';
import { messages } from '../validation/messages.ts';
import { routeTable, type RouteSpec } from '../definition/route-table.ts';
import { createExample, recordExample, updateExample } from './examples.ts';
import { lowerLabel, operationId, withArticle, type NameTable } from '../definition/names.ts';
import { ref, revealsFields, schemaNames, SHARED, successResponse, type JsonSchema } from '../serialize/response-schemas.ts';
import { listExample } from './schemas.ts';
import { importPaths } from './import-operation.ts';
import { bodyExample, bodySchema, bodyValidationExample } from './action-bodies.ts';
import { IDEMPOTENCY_KEY, rateLimitHeaders } from './shared-components.ts';
import { conditionalHeaders, pathParameters, queryParameters } from './parameters.ts';
import { accessNote, capitalize, describe, summary } from './descriptions.ts';
import { exportPathItems } from './export-operation.ts';
import { aggregatePathItems } from './aggregate-operation.ts';
import { describeSet } from '../keys/set.ts';
import { badRequestDescription, badRequestExample, conflictDescription, conflictExample, validationExample } from './error-examples.ts';

export type OperationObject = Record<string, any>;
export type PathItems = Record<string, Record<string, OperationObject>>;

const MESSAGES = ERROR_MESSAGES;

/** The header that makes a POST safe to retry (src/http/idempotency.ts). */
const jsonContent = (schema: JsonSchema, example: unknown) => ({ 'application/json': { schema, example } });

/** The paths of every generated route, keyed by OpenAPI path then lower-case method. */
export function resourcePaths(registry: Registry, names: NameTable, prefix: string, order: ResourceDef[]): PathItems {
  const paths: PathItems = {};
  for (const def of order) {
    for (const route of routeTable(def, prefix)) {
      paths[route.path] ??= {};
      paths[route.path]![route.method.toLowerCase()] = resourceOperation(def, route, registry, names);
    }
    for (const [path, item] of exportPathItems(def, registry, names, prefix)) paths[path] = item;
    for (const [path, item] of aggregatePathItems(def, registry, names, prefix)) paths[path] = item;
  }
  Object.assign(paths, importPaths(registry, names, prefix, order));
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
  // The status and schema are the serializer's (engine/serialize/response-schemas.ts); the words and the example are the document's.
  const ok = successResponse(def, route, registry, names);
  const success = (description: string, example: unknown) => {
    const headers = ok.record ? { ...rateLimitHeaders(), ETag: { $ref: '#/components/headers/ETag' } } : rateLimitHeaders();
    responses[ok.status] = { description, headers, content: jsonContent(ref(ok.schema), example) };
  };
  const record = recordExample(def, registry);
  switch (op) {
    case 'list':
      success(`A page of ${label} records.`, listExample(def, registry));
      break;
    case 'show':
      success(`The ${label}.`, { data: record });
      break;
    case 'create':
      success(revealsFields(def, route) ? `Created: the ${label} as stored, with what this answer alone shows.` : `Created: the ${label} as stored.`, {
        data: revealsFields(def, route) ? recordExample(def, registry, true, { revealed: true }) : record,
        message: def.messages.created,
      });
      break;
    case 'update':
      success(`Updated: the ${label} as stored.`, { data: record, message: def.messages.updated });
      break;
    case 'restore':
      success(`Restored: the ${label}.`, { data: record, message: def.messages.restored });
      break;
    case 'delete':
      success('Deleted.', { message: def.messages.deleted });
      break;
    case 'forceDelete':
      success('Permanently deleted.', { message: def.messages.forceDeleted });
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
  const uniqueAmongLive = [...def.fields.values()].find((field) => field.unique === 'live' && field.writable);
  if (op === 'restore' && uniqueAmongLive) {
    responses[422] = {
      description: `A live ${label} has taken a value unique among live records (\`${uniqueAmongLive.name}\`) since this one was deleted; it stays deleted.`,
      content: jsonContent(ref(SHARED.validationError), new ValidationError({ [uniqueAmongLive.name]: [messages.taken(uniqueAmongLive)] }).body()),
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
  if (action.on === 'collection') return collectionActionOperation(def, route, registry, names);
  const result = registry.get(action.result ?? def.name);
  const verb = route.action!.replace(/-/g, ' ');
  const parts = [action.description ? capitalize(action.description) : `The \`${route.action}\` action of ${withArticle(def.label)}.`];
  if (action.when) {
    const conditions = Object.entries(action.when).map(([column, values]) => `\`${column}\` is ${values.map((value) => `\`${value}\``).join(' or ')}`);
    parts.push(`Only when ${conditions.join(' and ')}; otherwise 422 “${action.refused}”.`);
  }
  if (action.set) parts.push(describeSet(action));
  if (result.name !== def.name) parts.push(`Answers ${action.creates ? '201 ' : ''}with the ${lowerLabel(result.label)} it creates.`);
  if (action.body) parts.push('The body is checked before anything changes: a field breaking its rules is a 422 naming it (`moves.0.quantity`).');
  parts.push(accessNote(def, route.action!));
  const record = recordExample(result, registry);
  const body = action.body && {
    required: [...action.body.fields.values()].some((field) => field.required),
    content: jsonContent(bodySchema(action.body, `${def.label} ${verb}`), bodyExample(action.body)),
  };
  return {
    tags: [names.get(def.name)!.tag],
    summary: `${capitalize(verb)} ${withArticle(def.label)}`,
    description: parts.join('\n\n'),
    operationId: `${operationId(def, 'show', 'GET').replace(/Show$/, '')}${route.action!.split('-').map(capitalize).join('')}`,
    'x-permissions': def.access.permissions[route.action!] ?? [],
    parameters: [...pathParameters(def, route), ...queryParameters(def, 'show'), IDEMPOTENCY_KEY],
    ...(body && { requestBody: body }),
    responses: {
      [successResponse(def, route, registry, names).status]: {
        description: action.message,
        headers: { ...rateLimitHeaders(), ETag: { $ref: '#/components/headers/ETag' } },
        content: jsonContent(ref(successResponse(def, route, registry, names).schema), {
          data: revealsFields(def, route) ? recordExample(def, registry, true, { revealed: true }) : record,
          message: action.message,
        }),
      },
      400: { description: badRequestDescription('show'), content: jsonContent(ref(SHARED.error), { message: badRequestExample(def, 'show') }) },
      401: { $ref: '#/components/responses/Unauthenticated' },
      403: { $ref: '#/components/responses/Forbidden' },
      404: { description: `No such ${lowerLabel(def.label)}.`, content: jsonContent(ref(SHARED.error), { message: MESSAGES.notFound }) },
      ...(body && { 413: { $ref: '#/components/responses/PayloadTooLarge' }, 415: { $ref: '#/components/responses/UnsupportedMediaType' } }),
      422: {
        description: action.body
          ? 'The body breaks a field rule (`errors` names each field), or the record’s state, or the stock or data the action needs, does not allow it (`message` says why); nothing was changed.'
          : 'The record’s state does not allow the action, or the stock or data it needs is not there; nothing was changed.',
        content: jsonContent(
          { anyOf: [ref(SHARED.error), ref(SHARED.validationError)] },
          action.body ? bodyValidationExample(action.body) : { message: action.refused ?? 'The action cannot be run on this record now.' },
        ),
      },
      429: { $ref: '#/components/responses/TooManyRequests' },
      500: { $ref: '#/components/responses/ServerError' },
      503: { $ref: '#/components/responses/ServiceUnavailable' },
    },
  };
}

/** POST on a nested collection: the action runs on the parent, the answer lists the collection. */
function collectionActionOperation(def: ResourceDef, route: RouteSpec, registry: Registry, names: NameTable): OperationObject {
  const action = def.actions.get(route.action!)!;
  const parent = registry.get(def.parent!.resource);
  const verb = route.action!.replace(/-/g, ' ');
  const parts = [
    action.description ? capitalize(action.description) : `The \`${route.action}\` action on the ${lowerLabel(parent.label)}'s ${lowerLabel(def.label)} records.`,
    `Takes no body. Answers 200 with every live ${lowerLabel(def.label)} of the ${lowerLabel(parent.label)}, unpaginated, in the default order.`,
    accessNote(def, route.action!),
  ];
  return {
    tags: [names.get(def.name)!.tag],
    summary: `${capitalize(verb)} the ${lowerLabel(def.label)} records of ${withArticle(parent.label)}`,
    description: parts.join('\n\n'),
    operationId: `${operationId(def, 'list', 'GET').replace(/List$/, '')}${route.action!.split('-').map(capitalize).join('')}`,
    'x-permissions': def.access.permissions[route.action!] ?? [],
    parameters: [...pathParameters(def, route), ...queryParameters(def, 'show'), IDEMPOTENCY_KEY],
    responses: {
      200: {
        description: action.message,
        headers: rateLimitHeaders(),
        content: jsonContent(ref(successResponse(def, route, registry, names).schema), { data: [recordExample(def, registry)], message: action.message }),
      },
      400: { description: badRequestDescription('show'), content: jsonContent(ref(SHARED.error), { message: badRequestExample(def, 'show') }) },
      401: { $ref: '#/components/responses/Unauthenticated' },
      403: { $ref: '#/components/responses/Forbidden' },
      404: { description: `No such ${lowerLabel(parent.label)}.`, content: jsonContent(ref(SHARED.error), { message: MESSAGES.notFound }) },
      422: {
        description: 'The parent’s data does not allow the action; nothing was changed.',
        content: jsonContent(ref(SHARED.error), { message: 'The action cannot be run on this record now.' }),
      },
      429: { $ref: '#/components/responses/TooManyRequests' },
      500: { $ref: '#/components/responses/ServerError' },
      503: { $ref: '#/components/responses/ServiceUnavailable' },
    },
  };
}
