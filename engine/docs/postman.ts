// A Postman v2.1 collection with one request per documented route, built from the OpenAPI
// document (itself built from the route table): a folder per module, a sub-folder per resource,
// the bearer token as a collection variable, example bodies, and the list parameters as
// disabled query entries. Logging in stores the token in the `token` variable.
import { STATUS_CODES } from 'node:http';
import type { OpenApiDocument } from './openapi.ts';

export const POSTMAN_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

export type PostmanCollection = Record<string, any>;

export function buildPostmanCollection(document: OpenApiDocument, baseUrl = 'http://127.0.0.1:3000'): PostmanCollection {
  const groups: Array<{ name: string; tags: string[] }> = document['x-tagGroups'] ?? [];
  const groupOf = new Map<string, string>();
  for (const group of groups) for (const tag of group.tags) groupOf.set(tag, group.name);

  // module → resource (tag) → requests, in document order.
  const folders = new Map<string, Map<string, any[]>>();
  for (const group of groups) folders.set(group.name, new Map(group.tags.map((tag) => [tag, []])));
  for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag: string = operation.tags?.[0] ?? 'Other';
      const module = groupOf.get(tag) ?? 'Other';
      if (!folders.has(module)) folders.set(module, new Map());
      const tags = folders.get(module)!;
      if (!tags.has(tag)) tags.set(tag, []);
      tags.get(tag)!.push(request(document, path, method, operation));
    }
  }

  const item = [...folders.entries()]
    .filter(([, tags]) => [...tags.values()].some((requests) => requests.length > 0))
    .map(([module, tags]) => ({
      name: module,
      item: [...tags.entries()]
        .filter(([, requests]) => requests.length > 0)
        .map(([tag, requests]) => ({ name: tag.includes(' / ') ? tag.split(' / ').slice(1).join(' / ') : tag, description: tagDescription(document, tag), item: requests })),
    }));

  return {
    info: {
      name: document.info.title,
      description: `${document.info.description}\n\nSet \`baseUrl\` to the installation's address; sending **Login** stores the token in the \`token\` variable.`,
      schema: POSTMAN_SCHEMA,
    },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}', type: 'string' }] },
    variable: [
      { key: 'baseUrl', value: baseUrl, type: 'string' },
      { key: 'token', value: '', type: 'string' },
    ],
    item,
  };
}

function tagDescription(document: OpenApiDocument, tag: string): string | undefined {
  return (document.tags as Array<{ name: string; description?: string }> | undefined)?.find((entry) => entry.name === tag)?.description;
}

function request(document: OpenApiDocument, path: string, method: string, operation: Record<string, any>): Record<string, any> {
  const parameters: Array<Record<string, any>> = (operation.parameters ?? []).map((parameter: Record<string, any>) => resolve(document, parameter));
  const segments = path
    .split('/')
    .filter(Boolean)
    .map((segment) => segment.replace(/^\{([^}]+)\}$/, ':$1'));
  const query = parameters
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => ({ key: parameter.name, value: queryExample(parameter), description: parameter.description, disabled: true }));
  const variables = parameters
    .filter((parameter) => parameter.in === 'path')
    .map((parameter) => ({ key: parameter.name, value: String(parameter.example ?? 1), description: parameter.description }));

  const headers: Array<Record<string, string>> = [{ key: 'Accept', value: 'application/json' }];
  const content = operation.requestBody?.content?.['application/json'];
  const result: Record<string, any> = {
    name: operation.summary ?? `${method.toUpperCase()} ${path}`,
    request: {
      method: method.toUpperCase(),
      header: headers,
      url: {
        raw: `{{baseUrl}}/${segments.join('/')}`,
        host: ['{{baseUrl}}'],
        path: segments,
        ...(query.length > 0 && { query }),
        ...(variables.length > 0 && { variable: variables }),
      },
      description: operation.description ?? '',
    },
    response: [],
  };
  if (Array.isArray(operation.security) && operation.security.length === 0) result.request.auth = { type: 'noauth' };
  if (content) {
    headers.push({ key: 'Content-Type', value: 'application/json' });
    result.request.body = { mode: 'raw', raw: JSON.stringify(content.example ?? {}, null, 2), options: { raw: { language: 'json' } } };
  }
  if (operation['x-postman-test']) {
    result.event = [{ listen: 'test', script: { type: 'text/javascript', exec: operation['x-postman-test'] } }];
  }
  const success = Object.entries<Record<string, any>>(operation.responses ?? {}).find(([status]) => status.startsWith('2'));
  const example = success?.[1]?.content?.['application/json']?.example;
  if (success && example !== undefined) {
    result.response.push({
      name: `${success[0]} ${success[1].description ?? ''}`.trim(),
      originalRequest: { method: result.request.method, header: headers, url: result.request.url, ...(result.request.body && { body: result.request.body }) },
      status: STATUS_CODES[Number(success[0])] ?? 'OK',
      code: Number(success[0]),
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
