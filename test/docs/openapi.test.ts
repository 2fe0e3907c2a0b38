// The OpenAPI document, without a server: valid OpenAPI 3.1, complete for the route table, its
// examples valid against their schemas, the CLI prints it, and the serializer keeps what it shows.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify from 'fastify';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { registerResponseSchemas } from '../../engine/serialize/route-serializers.ts';
import { routeTable } from '../../engine/definition/route-table.ts';
import { buildApiDocument } from '../../src/http/api-docs.ts';
import { API_PREFIX, loadResources } from '../../src/app/build-app.ts';
import { createChecker } from '../helpers/documented.ts';
import { builtEntry } from '../helpers/built.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const registry = loadResources();
const document = buildApiDocument(registry, API_PREFIX);
const checker = createChecker(document);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const SUCCESS = { list: '200', create: '201', show: '200', update: '200', delete: '200', restore: '200', forceDelete: '200' } as const;

type Json = Record<string, any>;

function operations(): Array<{ path: string; method: string; operation: Json }> {
  return Object.entries<Json>(document.paths).flatMap(([path, item]) =>
    Object.entries<Json>(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation })),
  );
}

function resolve(value: Json): Json {
  if (typeof value?.$ref !== 'string') return value;
  return value.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((node: Json, key: string) => node?.[key], document);
}

const test = suite('openapi document');

test('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document));
  assert.ok(result.valid, JSON.stringify(result.errors, null, 2)?.slice(0, 4000));
  assert.is(validator.version, '3.1');
  assert.is(document.openapi, '3.1.0');
});

test('documents every generated route, with its path parameters and success response', () => {
  for (const def of registry.all()) {
    for (const route of routeTable(def, API_PREFIX)) {
      const operation = document.paths[route.path]?.[route.method.toLowerCase()];
      assert.ok(operation, `${route.method} ${route.path} (${def.name} ${route.operation}) is documented`);
      const pathParams = [...route.path.matchAll(/\{([a-z_]+)\}/g)].map((match) => match[1]);
      const documented = operation.parameters
        .map(resolve)
        .filter((p: Json) => p.in === 'path')
        .map((p: Json) => p.name);
      assert.equal(documented, pathParams, `${route.method} ${route.path}: path parameters`);
      const success = route.action ? (def.actions.get(route.action)!.creates ? '201' : '200') : SUCCESS[route.operation as keyof typeof SUCCESS];
      assert.ok(operation.responses[success], `${route.method} ${route.path}: ${success}`);
      for (const status of ['401', '403', '429', '500']) assert.ok(operation.responses[status], `${route.method} ${route.path}: ${status}`);
      assert.ok(operation.operationId, 'operationId');
    }
  }
  for (const path of [`${API_PREFIX}/login`, `${API_PREFIX}/logout`]) assert.ok(document.paths[path]?.post, `POST ${path}`);
  assert.ok(document.paths['/health']?.get, 'GET /health');
  const ids = operations().map(({ operation }) => operation.operationId);
  assert.is(new Set(ids).size, ids.length, 'operationIds are unique');
});

test('list parameters: include, every filter with its kind, sort with -, page and per_page 1..100 (default 15)', () => {
  for (const def of registry.all()) {
    if (!def.operations.has('list')) continue;
    const path = `${API_PREFIX}${def.path}`;
    const parameters: Json[] = document.paths[path].get.parameters.map(resolve);
    const byName = new Map(parameters.map((parameter) => [parameter.name, parameter]));
    for (const filter of def.filters.values()) {
      const parameter = byName.get(`filter[${filter.name}]`);
      assert.ok(parameter, `${path}: filter[${filter.name}]`);
      assert.ok(parameter!.description.includes(`\`${filter.kind}\``), `${path}: filter[${filter.name}] names its kind`);
    }
    const sort = byName.get('sort')!;
    assert.equal(
      sort.schema.items.enum,
      def.sorts.flatMap((name) => [name, `-${name}`]),
      `${path}: sort`,
    );
    if (def.allowedIncludes.size > 0) assert.equal(byName.get('include')!.schema.items.enum, [...def.allowedIncludes], `${path}: include`);
    else assert.not.ok(byName.has('include'));
    assert.equal(byName.get('per_page')!.schema, { type: 'integer', minimum: 1, maximum: 100, default: 15 });
    assert.equal(byName.get('page')!.schema, { type: 'integer', minimum: 1, maximum: 1000000000, default: 1 });
  }
});

test('request bodies are the validation schemas: required fields, lengths, bounds, formats, enums', () => {
  for (const def of registry.all()) {
    if (!def.operations.has('create')) continue;
    const schema = resolve(document.paths[`${API_PREFIX}${def.path}`].post.requestBody.content['application/json'].schema);
    const writable = [...def.fields.values()].filter((field) => field.writable);
    assert.equal(
      Object.keys(schema.properties),
      writable.map((field) => field.name),
      `${def.name}: writable fields`,
    );
    assert.equal(
      schema.required ?? [],
      writable.filter((field) => field.required).map((field) => field.name),
      `${def.name}: required`,
    );
    for (const field of writable) {
      const text = JSON.stringify(schema.properties[field.name]);
      if (field.maxLength !== undefined) assert.ok(text.includes(`"maxLength":${field.maxLength}`), `${def.name}.${field.name} maxLength`);
      if (field.minimum !== undefined) assert.ok(text.includes(`"minimum":${field.minimum}`), `${def.name}.${field.name} minimum`);
      if (field.format) assert.ok(text.includes(`"format":"${field.format}"`), `${def.name}.${field.name} format`);
      for (const value of field.enum ?? []) assert.ok(text.includes(`"const":"${value}"`), `${def.name}.${field.name} enum ${value}`);
    }
  }
});

test('record schemas: every output field and every relation (belongsTo nullable, to-many arrays)', () => {
  for (const def of registry.all()) {
    if (!def.operations.has('show')) continue;
    const envelope = resolve(document.paths[`${API_PREFIX}${def.path}/{id}`].get.responses['200'].content['application/json'].schema);
    const record = resolve(envelope.properties.data);
    const output = [...def.fields.values()].filter((field) => field.output).map((field) => field.name);
    const relations = [...def.relations.values()].map((relation) => relation.outputKey);
    assert.equal(Object.keys(record.properties), [...output, ...relations], `${def.name}: properties in response order`);
    assert.equal(record.required, output, `${def.name}: fields always present`);
    for (const relation of def.relations.values()) {
      const property = record.properties[relation.outputKey];
      if (relation.kind === 'belongsTo')
        assert.ok(
          property.anyOf?.some((option: Json) => option.type === 'null'),
          `${def.name}.${relation.outputKey} nullable`,
        );
      else assert.is(property.type, 'array', `${def.name}.${relation.outputKey} array`);
    }
    for (const field of def.fields.values()) {
      if (field.type === 'decimal' && field.output) assert.ok(JSON.stringify(record.properties[field.name]).includes('"string"'), `${def.name}.${field.name}: decimal string`);
    }
  }
});

test('every request body and response has an example, and every example fits its schema', () => {
  let checked = 0;
  for (const { path, method, operation } of operations()) {
    const where = `${method.toUpperCase()} ${path}`;
    const content = operation.requestBody?.content?.['application/json'];
    if (content) {
      assert.ok(content.example !== undefined, `${where}: request example`);
      const validate = checker.validator(content.schema);
      assert.ok(validate(content.example), `${where}: request example: ${JSON.stringify(validate.errors)}`);
      checked++;
    }
    for (const [status, raw] of Object.entries<Json>(operation.responses)) {
      const response = resolve(raw);
      for (const [type, media] of Object.entries<Json>(response.content ?? {})) {
        assert.ok(media.example !== undefined, `${where} ${status} ${type}: example`);
        if (type !== 'application/json') continue;
        const validate = checker.validator(media.schema);
        assert.ok(validate(media.example), `${where} ${status}: example: ${JSON.stringify(validate.errors)}`);
        checked++;
      }
    }
  }
  for (const [name, schema] of Object.entries<Json>(document.components.schemas)) {
    for (const example of schema.examples ?? []) {
      const validate = checker.validator({ $ref: `#/components/schemas/${name}` });
      assert.ok(validate(example), `${name}: example: ${JSON.stringify(validate.errors)}`);
    }
    for (const [property, propertySchema] of Object.entries<Json>(schema.properties ?? {})) {
      for (const example of propertySchema.examples ?? []) {
        const validate = checker.validator({ $ref: `#/components/schemas/${name}/properties/${property}` });
        assert.ok(validate(example), `${name}.${property}: example ${JSON.stringify(example)}: ${JSON.stringify(validate.errors)}`);
        checked++;
      }
    }
  }
  assert.ok(checked > 100, `${checked} examples checked`);
});

test('the serializer writes every documented example unchanged (nothing documented is dropped)', async () => {
  const app = Fastify();
  const serialization = registerResponseSchemas(app, registry, API_PREFIX);
  for (const def of registry.all()) {
    for (const route of routeTable(def, API_PREFIX)) {
      const { schema, serializerCompiler } = serialization(route);
      const operation = document.paths[route.path][route.method.toLowerCase()];
      const successes = Object.keys(operation.responses).filter((status) => status.startsWith('2'));
      // Success statuses only (errors are written whole by the error handler); a route's one success status is keyed 2xx.
      assert.equal(Object.keys(schema.response), successes.length === 1 ? ['2xx'] : successes, `${route.method} ${route.path}`);
      for (const [key, responseSchema] of Object.entries(schema.response)) {
        const status = key === '2xx' ? successes[0]! : key;
        const example = resolve(operation.responses[status]).content['application/json'].example;
        const serialize = serializerCompiler({ schema: responseSchema, method: route.method, url: route.path, httpStatus: status });
        assert.equal(JSON.parse(serialize(example)), example, `${route.method} ${route.path} ${status}`);
      }
    }
  }
  // And a property the document does not know is not sent.
  const show = routeTable(registry.get('support/banks'), API_PREFIX).find((route) => route.operation === 'show')!;
  const { schema, serializerCompiler } = serialization(show);
  const serialize = serializerCompiler({ schema: schema.response['2xx']!, method: 'GET', url: show.path, httpStatus: '2xx' });
  const sent = JSON.parse(serialize({ data: { id: 1, name: 'Bank', password: 'secret' }, debug: true }));
  assert.equal(sent, { data: { id: 1, name: 'Bank' } });
  await app.close();
});

test('the response check finds the operation of a path (literal, with ids, nested, with a trailing slash) and refuses what it does not document', () => {
  const refusal = (method: string, url: string, status: number, body: unknown = {}) => {
    try {
      checker.check(method, url, status, body, 'application/json');
      return '';
    } catch (error) {
      return (error as Error).message;
    }
  };
  assert.match(refusal('GET', `${API_PREFIX}/sales/orders`, 299), /→ 299 is not documented \(documented: 200, /);
  assert.match(refusal('GET', `${API_PREFIX}/sales/orders/`, 299), /→ 299 is not documented \(documented: 200, /);
  assert.match(refusal('GET', `${API_PREFIX}/sales/orders/12`, 299), /→ 299 is not documented/);
  assert.match(refusal('GET', `${API_PREFIX}/sales/orders/12/lines`, 299), /→ 299 is not documented/);
  assert.match(refusal('GET', `${API_PREFIX}/sales/orders/export`, 299), /orders\/export → 299 is not documented/);
  assert.match(refusal('TRACE', `${API_PREFIX}/sales/orders/12`, 299), /no documented operation \(the path documents (?=.*GET)(?=.*PATCH)(?=.*DELETE)/);
  assert.is(refusal('TRACE', `${API_PREFIX}/sales/orders/12`, 405, { message: 'Method Not Allowed' }), '', 'the generic 405 of a path that has other methods');
  assert.match(refusal('GET', `${API_PREFIX}/sales/nothing-here/12`, 200), /no documented operation$/);
  assert.match(refusal('GET', `${API_PREFIX}/sales/orders/12`, 200, { data: { id: 'twelve' } }), /does not match the documented schema/);
  assert.is(refusal('GET', `${API_PREFIX}/sales/orders/12`, 404, { message: 'Record not found.' }), '');
});

test('`npm run erp -- openapi` prints the same document', async () => {
  const entry = await builtEntry('src/cli/index.ts');
  const stdout = await new Promise<string>((resolvePromise, reject) => {
    execFile(process.execPath, [entry, 'openapi'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, out) => (error ? reject(error) : resolvePromise(out)));
  });
  assert.equal(JSON.parse(stdout), document);
});

test.run();
