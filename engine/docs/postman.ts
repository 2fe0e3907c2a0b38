// A Postman v2.1 collection that runs green end to end on any installation (Postman's "Run
// collection", or newman): Log in first, then a folder per resource in the order the plan gives
// (engine/docs/postman-plan.ts), each creating its own record, reading, updating and walking it
// through its workflow, then deleting a record of its own; Log out last. Every request checks
// its status and envelope. Requests, descriptions and examples come from the OpenAPI document.
import { underWalk } from '../definition/walkthroughs.ts';
import { STATUS_CODES } from 'node:http';
import type { Registry } from '../definition/registry.ts';
import type { RelationDef, ResourceDef } from '../definition/types.ts';
import { routeTable, type RouteSpec } from '../definition/route-table.ts';
import { IMPORT_MARK } from './import-operation.ts';
import { importPath, JSON_LINES } from '../transfer/import/formats.ts';
import { allParentsExportPath, exportPath } from '../transfer/export/export-query.ts';
import { generatedRoutes } from './generated-routes.ts';
import { aggregateOffer } from '../aggregate/offer.ts';
import { aggregatePath, allParentsAggregatePath } from '../aggregate/parse-aggregate-query.ts';
import type { OpenApiDocument } from './openapi.ts';
import { actionBody, type BodyOptions, childVariable, createBody, idVariable, keyColumns, keyVariable, runOrder, updateBody } from './postman-plan.ts';
import { expectations, retryingOr, storeCreated, storeFirstChild, storeFirstListed } from './postman-scripts.ts';
import { planWalks } from './postman-walk.ts';

export const POSTMAN_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

export type PostmanCollection = Record<string, any>;

/** How a route the app adds itself (login, tokens, ...) takes part in the run: `x-postman` on its operation. */
export interface PostmanHints {
  /** Log in runs first, Log out last; the others after Log in. */
  position?: 'first' | 'last';
  /** The body to send instead of the example (`{{email}}`). */
  body?: Record<string, unknown>;
  /** A pre-request script. */
  prerequest?: string[];
  /** A test script run after the status and envelope checks. */
  test?: string[];
  /** The variable holding a bearer token of its own (`/metrics` with METRICS_TOKEN). */
  bearer?: string;
}

export interface PostmanOptions {
  registry: Registry;
  /** The API prefix the registry's paths are under (/admin/api/v1). */
  prefix: string;
  baseUrl?: string;
}

interface RequestSpec {
  name: string;
  method: string;
  /** The OpenAPI path, `{param}` placeholders included. */
  path: string;
  /** Placeholder → the text to put there (`{{support_uoms_id}}`). */
  params?: Record<string, string>;
  /** The body's media type, when not JSON (an import's JSON lines). */
  contentType?: string;
  /** Query parameters sent (the others the operation takes are listed, disabled). */
  query?: Record<string, string>;
  body?: string;
  prerequest?: string[];
  test?: string[];
  bearer?: string;
}

export function buildPostmanCollection(document: OpenApiDocument, { registry, prefix, baseUrl = 'http://127.0.0.1:3000' }: PostmanOptions): PostmanCollection {
  const operations = new Map<string, Record<string, any>>();
  for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
    for (const method of METHODS) if (item[method]) operations.set(`${method.toUpperCase()} ${path}`, item[method]);
  }
  const render = (spec: RequestSpec) => postmanRequest(document, spec, operations.get(`${spec.method} ${spec.path}`) ?? {});

  const generated = generatedRoutes(registry, prefix);
  const first: any[] = [];
  const last: any[] = [];
  const service = new Map<string, any[]>();
  for (const [key, operation] of operations) {
    if (generated.has(key) || operation[IMPORT_MARK]) continue;
    const [method, path] = key.split(' ') as [string, string];
    const hints: PostmanHints = operation['x-postman'] ?? {};
    const request = render(serviceRequest(method, path, operation, hints, prefix));
    if (hints.position === 'first') first.push(request);
    else if (hints.position === 'last') last.push(request);
    else {
      const tag: string = operation.tags?.[0] ?? 'Other';
      if (!service.has(tag)) service.set(tag, []);
      service.get(tag)!.push(request);
    }
  }

  const order = runOrder(registry);
  // Resources without routes of their own (written through their owner) have no folder.
  const resources = order
    .filter((def) => routeTable(def, prefix).length > 0)
    .map((def) => {
      const [route] = routeTable(def, prefix);
      const tag: string = operations.get(`${route!.method} ${route!.path}`)?.tags?.[0] ?? def.label;
      return { name: tag, description: tagDescription(document, tag), item: resourceRequests(def, registry, prefix).map(render) };
    });
  const item = [...first, ...[...service].map(([tag, requests]) => ({ name: tag, description: tagDescription(document, tag), item: requests })), ...resources, ...last];
  // Every variable a request uses is declared, so that the collection shows them all before a run.
  const fixed = ['baseUrl', 'email', 'password', 'metricsToken', 'token', 'run'];
  const used = new Set([...JSON.stringify(item).matchAll(/\{\{([A-Za-z0-9_]+)\}\}/g)].map((match) => match[1]!));
  const variables = [...used].filter((name) => !fixed.includes(name)).sort();

  return {
    info: {
      name: document.info.title,
      description: `${document.info.description}\n\n## Running the collection\n\nSet \`baseUrl\`, \`email\` and \`password\` (and \`metricsToken\` when the installation sets METRICS_TOKEN), then run the whole collection: **Log in** stores the token, each resource's folder creates the records the following ones point at (unique values carry the run's suffix, so a second run works too), and **Log out** comes last. Every request checks its status and envelope. Records the run creates stay unless the folder deletes them: run it against a test company or a staging copy. \`npm run smoke\` runs it with newman.`,
      schema: POSTMAN_SCHEMA,
    },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}', type: 'string' }] },
    variable: [
      { key: 'baseUrl', value: baseUrl, type: 'string' },
      { key: 'email', value: 'admin@example.com', type: 'string' },
      { key: 'password', value: '', type: 'string' },
      { key: 'metricsToken', value: '', type: 'string' },
      { key: 'token', value: '', type: 'string' },
      { key: 'run', value: '', type: 'string' },
      ...variables.map((key) => ({ key, value: '', type: 'string' })),
    ],
    item,
  };
}

/** The requests of one resource's folder, in an order where each has what it needs. */
function resourceRequests(def: ResourceDef, registry: Registry, prefix: string): RequestSpec[] {
  const routes = new Map<string, RouteSpec>();
  for (const route of routeTable(def, prefix)) routes.set(route.action ?? `${route.operation} ${route.method}`, route);
  // Under the parent's record of the run, or the one a walk of the parent's took (`under`).
  const [walker, walk] = def.walkthrough.under ? underWalk(def.walkthrough.under, def.parent!.resource) : [def.parent?.resource, undefined];
  const parentParam: Record<string, string> = def.parent ? { [def.parent.param]: `{{${idVariable(registry.get(walker!), walk)}}}` } : {};
  const on = (variable: string) => ({ ...parentParam, id: `{{${variable}}}` });
  const keys = keyColumns(def, registry).map((column) => ({ column, variable: keyVariable(def, column) }));
  const specs: RequestSpec[] = [];
  const add = (key: string, name: string, extra: Partial<RequestSpec> = {}) => {
    const route = routes.get(key);
    if (route) specs.push({ name, method: route.method, path: route.path, params: parentParam, ...extra });
  };
  // `children`: relations whose first record an action's body names; the create includes them and keeps that id.
  const create = (name: string, copy: string, suffix: string, overrides: Partial<BodyOptions> = {}, children: RelationDef[] = []) =>
    add('create POST', name, {
      body: createBody(def, registry, { suffix, ...overrides }),
      ...(children.length > 0 && { query: { include: children.map((relation) => relation.name).join(',') } }),
      test: [...storeCreated(idVariable(def, copy), copy ? [] : keys), ...children.flatMap((relation) => storeFirstChild(childVariable(def, copy, relation), relation.outputKey))],
    });

  const main = idVariable(def);
  // An action on the collection (a product's variants' sync) makes the records the list then finds.
  for (const action of def.actions.values()) if (action.on === 'collection') add(action.name, actionName(action.name));
  create('Create', '', '{{run}}');
  if (def.operations.has('create')) specs.push(...importRequests(def, registry, prefix, parentParam));
  add('list GET', 'List', def.operations.has('create') ? {} : { test: storeFirstListed(main, keys) });
  if (def.operations.has('list')) specs.push({ name: 'Export (CSV)', method: 'GET', path: exportPath(def, prefix), params: parentParam, query: { format: 'csv' } });
  const everyParent = allParentsExportPath(def, prefix);
  if (everyParent) specs.push({ name: 'Export across every parent (CSV)', method: 'GET', path: everyParent, params: {}, query: { format: 'csv' } });
  if (def.operations.has('list'))
    specs.push({ name: 'Grouped totals', method: 'GET', path: aggregatePath(prefix, def.path), params: parentParam, query: aggregateQuery(def, registry) });
  const totalsOfEveryParent = allParentsAggregatePath(def, prefix);
  if (totalsOfEveryParent) specs.push({ name: 'Grouped totals across every parent', method: 'GET', path: totalsOfEveryParent, params: {}, query: aggregateQuery(def, registry) });
  add('show GET', 'Show', { params: on(main) });
  add('update PUT', 'Update', { params: on(main), body: updateBody(def, registry, { suffix: '{{run}}' }) });
  add('update PATCH', 'Update some fields', { params: on(main), body: updateBody(def, registry, { suffix: '{{run}}' }) });

  // Each walk through the workflow on a record of its own, created for it; a resource nobody
  // creates through the API (a webhook delivery) walks on the record it listed first.
  for (const [index, walk] of planWalks(def).entries()) {
    const copy = `walk${index + 1}`;
    // The bodies the walk's actions declare, as the reference's examples, on this walk's record.
    const bodies = new Map(walk.actions.map((name) => [name, actionBody(def, def.actions.get(name)!, registry, copy)]));
    const children = [...new Set([...bodies.values()].flatMap((body) => body?.children ?? []))];
    if (def.operations.has('create')) create(`Create for ${walk.actions.join(', ')}`, copy, `{{run}}-w${index + 1}`, { with: walk.with }, children);
    for (const action of walk.actions) {
      add(action, actionName(action), { params: on(def.operations.has('create') ? idVariable(def, copy) : main), ...(bodies.get(action) && { body: bodies.get(action)!.text }) });
    }
  }

  // Deleting (and restoring) a record nothing else points at.
  if (def.operations.has('create') && def.operations.has('delete')) {
    const disposable = idVariable(def, 'deleted');
    create('Create to delete', 'deleted', '{{run}}-d', { values: def.walkthrough.deleting.values });
    for (const action of def.walkthrough.deleting.actions) add(action, actionName(action), { params: on(disposable) });
    add('delete DELETE', 'Delete', { params: on(disposable) });
    add('restore POST', 'Restore', { params: on(disposable) });
    // Trashed or not, a record can be deleted for good.
    add('forceDelete DELETE', 'Delete permanently', { params: on(disposable) });
  } else if (def.operations.has('delete') || def.operations.has('forceDelete')) {
    // Records its routes do not create (a product's variants): the one listed is archived,
    // restored, then deleted for good, last.
    add('delete DELETE', 'Delete', { params: on(main) });
    add('restore POST', 'Restore', { params: on(main) });
    add('forceDelete DELETE', 'Delete permanently', { params: on(main) });
  }
  return specs;
}

/**
 * A resource's imports, as JSON lines of its create body: a dry run with a bad second row (it is
 * reported, nothing is written), then, for a resource whose creates run no behaviour, an import.
 */
function importRequests(def: ResourceDef, registry: Registry, prefix: string, params: Record<string, string>): RequestSpec[] {
  const line = createBody(def, registry, { suffix: '{{run}}-i' }).replace(/\n\s*/g, '');
  const path = importPath(def, prefix);
  const report = 'const report = pm.response.json();';
  const requests: RequestSpec[] = [
    {
      name: 'Import: dry run with a bad row',
      method: 'POST',
      path,
      params,
      query: { dry_run: '1' },
      contentType: JSON_LINES,
      body: `${line}\n{"id": "not-an-id"}\n`,
      test: [report, "pm.test('the bad row is reported by its line', () => pm.expect(report.rejected.map((entry) => entry.row)).to.include(2));"],
    },
  ];
  const plain = Object.values(def.behaviours).every((names) => names.length === 0) && !def.upsertOn;
  if (plain) {
    requests.push({
      name: 'Import',
      method: 'POST',
      path,
      params,
      contentType: JSON_LINES,
      body: `${line}\n`,
      test: [report, "pm.test('the row is imported', () => pm.expect(report.created + report.updated).to.eql(1));"],
    });
  }
  return requests;
}

function serviceRequest(method: string, path: string, operation: Record<string, any>, hints: PostmanHints, prefix: string): RequestSpec {
  // A route of its own under the prefix keeps its record in a variable named after its path.
  const collectionPath = path.replace(/\/\{[^}]+\}$/, '');
  const variable = `${collectionPath.slice(prefix.length + 1).replace(/[/-]/g, '_')}_id`;
  const created = method === 'POST' && !path.endsWith('}') && operation.responses?.['201'] !== undefined;
  return {
    name: operation.summary ?? `${method} ${path}`,
    method,
    path,
    params: { ...exampleParams(operation), ...(path.includes('{id}') && { id: `{{${variable}}}` }) },
    ...(hints.body && { body: JSON.stringify(hints.body, null, 2) }),
    prerequest: hints.prerequest,
    test: [...(created ? storeCreated(variable, []) : []), ...(hints.test ?? [])],
    bearer: hints.bearer,
  };
}

/** Path parameters with an example (`/api/docs/modules/{module}`): the example. */
function exampleParams(operation: Record<string, any>): Record<string, string> {
  const parameters: Array<Record<string, any>> = operation.parameters ?? [];
  return Object.fromEntries(
    parameters.filter((parameter) => parameter.in === 'path' && parameter.example !== undefined).map((parameter) => [parameter.name, String(parameter.example)]),
  );
}

function actionName(action: string): string {
  const words = action.replace(/-/g, ' ');
  return words[0]!.toUpperCase() + words.slice(1);
}

function tagDescription(document: OpenApiDocument, tag: string): string | undefined {
  return (document.tags as Array<{ name: string; description?: string }> | undefined)?.find((entry) => entry.name === tag)?.description;
}

function postmanRequest(document: OpenApiDocument, spec: RequestSpec, operation: Record<string, any>): Record<string, any> {
  const parameters: Array<Record<string, any>> = (operation.parameters ?? []).map((parameter: Record<string, any>) => resolve(document, parameter));
  const path = spec.path.replace(/\{([^}]+)\}/g, (placeholder, name: string) => spec.params?.[name] ?? placeholder);
  const segments = path.split('/').filter(Boolean);
  const query = parameters
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) =>
      spec.query?.[parameter.name] !== undefined
        ? { key: parameter.name, value: spec.query[parameter.name], description: parameter.description }
        : { key: parameter.name, value: queryExample(parameter), description: parameter.description, disabled: true },
    );
  const sent = Object.entries(spec.query ?? {}).map(([key, value]) => `${key}=${value}`);

  const headers: Array<Record<string, string>> = [{ key: 'Accept', value: 'application/json' }];
  const content = operation.requestBody?.content?.['application/json'];
  const body = spec.body ?? (content ? JSON.stringify(content.example ?? {}, null, 2) : undefined);
  const url = { raw: `{{baseUrl}}/${segments.join('/')}${sent.length > 0 ? `?${sent.join('&')}` : ''}`, host: ['{{baseUrl}}'], path: segments, ...(query.length > 0 && { query }) };
  const result: Record<string, any> = {
    name: spec.name,
    request: { method: spec.method, header: headers, url, description: operation.description ?? '' },
    response: [],
  };
  if (spec.bearer) result.request.auth = { type: 'bearer', bearer: [{ key: 'token', value: `{{${spec.bearer}}}`, type: 'string' }] };
  else if (Array.isArray(operation.security) && operation.security.length === 0) result.request.auth = { type: 'noauth' };
  if (body !== undefined) {
    headers.push({ key: 'Content-Type', value: spec.contentType ?? 'application/json' });
    result.request.body = { mode: 'raw', raw: body, options: { raw: { language: spec.contentType ? 'text' : 'json' } } };
  }
  const success = Object.entries<Record<string, any>>(operation.responses ?? {}).filter(([status]) => status.startsWith('2'));
  const example = success[0]?.[1]?.content?.['application/json']?.example;
  const statuses = success.map(([status]) => Number(status));
  const test = retryingOr([...expectations(statuses, example), ...(spec.test ?? [])]);
  result.event = [{ listen: 'test', script: { type: 'text/javascript', exec: test } }];
  if (spec.prerequest) result.event.push({ listen: 'prerequest', script: { type: 'text/javascript', exec: spec.prerequest } });
  if (success[0] && example !== undefined) {
    result.response.push({
      name: `${success[0][0]} ${success[0][1].description ?? ''}`.trim(),
      originalRequest: { method: spec.method, header: headers, url, ...(result.request.body && { body: result.request.body }) },
      status: STATUS_CODES[Number(success[0][0])] ?? 'OK',
      code: Number(success[0][0]),
      _postman_previewlanguage: 'json',
      header: [{ key: 'Content-Type', value: 'application/json' }],
      body: JSON.stringify(example, null, 2),
    });
  }
  return result;
}

function resolve(document: OpenApiDocument, value: Record<string, any>): Record<string, any> {
  if (typeof value.$ref !== 'string') return value;
  const resolved = value.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((node: any, key: string) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
  return resolved ?? value;
}

function queryExample(parameter: Record<string, any>): string {
  const schema = parameter.schema ?? {};
  if (parameter.example !== undefined) return String(parameter.example);
  if (schema.default !== undefined) return String(schema.default);
  const items = schema.type === 'array' ? (schema.items ?? {}) : schema;
  if (Array.isArray(items.enum) && items.enum.length > 0) return String(items.enum[0]);
  if (items.type === 'integer' || items.type === 'number') return '1';
  if (items.type === 'boolean') return 'true';
  if (items.format === 'date') return '2025-01-31';
  return '';
}

/** A grouped total worth running: by the first dimension the resource offers (a relation or a field before a date), counted. */
function aggregateQuery(def: ResourceDef, registry: Registry): Record<string, string> {
  const dimensions = [...aggregateOffer(def, registry).dimensions.values()];
  const first = dimensions.find((dimension) => dimension.kind !== 'date') ?? dimensions[0];
  return { ...(first && { group_by: first.kind === 'date' ? `${first.name}:month` : first.name }), measures: 'count' };
}
