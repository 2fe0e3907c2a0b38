// What the interactive page loads: one OpenAPI 3.0 document per module, valid, self-contained,
// together covering every operation of the complete document, related records by their fields;
// served at /api/docs/modules/<module>, which the page's selector offers.
import { Validator } from '@seriousme/openapi-schema-validator';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { pageDocuments } from '../../engine/docs/page-documents.ts';
import { schema30 } from '../../engine/docs/openapi-30.ts';
import { buildApiDocument } from '../../src/http/api-docs.ts';
import { API_PREFIX, loadResources } from '../../src/app/build-app.ts';
import { sharedApp } from '../helpers/app.ts';
import { databaseTargets, inThisRun } from '../helpers/targets.ts';

type Json = Record<string, any>;
const registry = loadResources();
const document = buildApiDocument(registry, API_PREFIX);
const modules = pageDocuments(document, registry, '/api/docs/openapi.json');

function operationKeys(doc: Json): string[] {
  return Object.entries<Json>(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
}

function references(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const entry of value) references(entry, found);
  else if (value && typeof value === 'object') {
    for (const [key, entry] of Object.entries(value)) {
      if (key === '$ref' && typeof entry === 'string') found.push(entry);
      else if (key !== 'example') references(entry, found);
    }
  }
  return found;
}

const test = suite('page documents');

test('one per module, in the order of x-tagGroups, together every operation of the complete document once', () => {
  assert.equal(
    modules.map((module) => module.name),
    document['x-tagGroups'].map((group: Json) => group.name),
  );
  const operations = modules.flatMap((module) => operationKeys(module.document()));
  assert.equal([...operations].sort(), operationKeys(document).sort());
  const support = modules.find((module) => module.slug === 'support')!;
  assert.ok(support.document().paths[`${API_PREFIX}/support/banks`]?.get, 'GET /support/banks is in Support');
  assert.is(modules.find((module) => module.name === 'Keeping in sync')?.slug, 'keeping-in-sync');
});

test('each is valid OpenAPI 3.0 and every reference in it resolves inside it', async () => {
  for (const { name, document: build } of modules) {
    const doc = build();
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    assert.is(validator.version, '3.0', name);
    assert.ok(result.valid, `${name}: ${String(JSON.stringify(result.errors ?? null)).slice(0, 1500)}`);
    for (const reference of references(doc)) {
      const target = reference
        .slice(2)
        .split('/')
        .reduce((node: Json | undefined, key) => node?.[key], doc);
      assert.ok(target !== undefined, `${name}: ${reference} does not resolve`);
    }
  }
});

test('a related record is shown by its own fields; a resource’s own answers show the whole record', () => {
  const sales = modules.find((module) => module.name === 'Sales')!.document();
  const schemas = sales.components.schemas;
  const order = schemas.SalesOrder;
  assert.ok(order, 'the record of the module’s resource');
  // The envelope keeps the whole record.
  assert.equal(schemas.SalesOrderResponse.properties.data, { $ref: '#/components/schemas/SalesOrder' });
  // Its relations point at the related resources' fields-only schemas, which have no relations.
  const relations = [...registry.get('sales/orders').relations.values()];
  assert.ok(relations.length > 0);
  for (const relation of relations) {
    const text = JSON.stringify(order.properties[relation.outputKey]);
    const target = text.match(/#\/components\/schemas\/([A-Za-z]+)/)?.[1];
    assert.ok(target?.endsWith('Fields'), `${relation.name}: ${text}`);
    const fields = schemas[target!];
    assert.ok(fields, `${target} is in the module's document`);
    assert.not.match(JSON.stringify(fields.properties), /#\/components\/schemas\//, `${target} has no relations`);
  }
  // The complete document is unchanged: relations there point at the whole record.
  assert.not.match(JSON.stringify(document.components.schemas), /Fields"/);
});

test('a choice among many schemas (the change feed’s record) names them instead of drawing each', () => {
  const sync = modules.find((module) => module.slug === 'keeping-in-sync')!.document();
  const record = sync.components.schemas.Change.properties.record;
  assert.is(record.anyOf, undefined);
  assert.is(record.type, 'object');
  assert.match(record.description, /in its resource’s schema\. One of: `[A-Za-z]+Fields`, /);
  const complete = document.components.schemas.Change.properties.record;
  assert.ok(complete.anyOf.length > 12, 'the complete document keeps every alternative');
  for (const branch of complete.anyOf) assert.ok(record.description.includes(`\`${branch.$ref.split('/').pop()}Fields\``), branch.$ref);
});

test('parameters and responses repeated word for word are written once and referred to', () => {
  const support = modules.find((module) => module.slug === 'support')!.document();
  const banks = (method: string, path = '/support/banks') => support.paths[`${API_PREFIX}${path}`][method];
  const include = (operation: Json) => operation.parameters.find((parameter: Json) => parameter.$ref && /include/.test(parameter.$ref))?.$ref;
  assert.ok(include(banks('get')), 'the list refers to the shared include parameter');
  assert.is(include(banks('get', '/support/banks/{id}')), include(banks('get')), 'and show to the same one');
  const shared = support.components.parameters[include(banks('get')).split('/').pop()];
  assert.is(shared.name, 'include');
  // What the complete document says inline, the page's copy says once: same operations, same words.
  const inline = document.paths[`${API_PREFIX}/support/banks`].get.parameters.find((parameter: Json) => parameter.name === 'include');
  assert.equal(shared.schema, inline.schema);
});

test('the 3.0 dialect: nullable types and references, constants, examples, exclusive bounds', () => {
  assert.equal(schema30({ type: ['string', 'null'], maxLength: 3 }), { type: 'string', maxLength: 3, nullable: true });
  assert.equal(schema30({ type: ['string', 'null'], enum: ['a', null] }), { type: 'string', enum: ['a'], nullable: true });
  assert.equal(schema30({ description: 'd', anyOf: [{ $ref: '#/components/schemas/A' }, { type: 'null' }] }), {
    description: 'd',
    allOf: [{ $ref: '#/components/schemas/A' }],
    nullable: true,
  });
  assert.equal(schema30({ anyOf: [{ type: 'array', items: { type: 'integer' } }, { type: 'null' }] }), { type: 'array', items: { type: 'integer' }, nullable: true });
  assert.equal(
    schema30({
      anyOf: [
        { const: 'a', type: 'string' },
        { const: 'b', type: 'string' },
      ],
    }),
    { type: 'string', enum: ['a', 'b'] },
  );
  assert.equal(schema30({ anyOf: [{ anyOf: [{ const: 'a', type: 'string' }] }, { type: 'null' }] }), { type: 'string', enum: ['a'], nullable: true });
  assert.equal(schema30({ type: 'boolean', const: false }), { type: 'boolean', enum: [false] });
  assert.equal(schema30({ type: 'string', examples: ['x', 'y'] }), { type: 'string', example: 'x' });
  assert.equal(schema30({ type: 'number', exclusiveMinimum: 0 }), { type: 'number', minimum: 0, exclusiveMinimum: true });
  assert.equal(schema30({ $ref: '#/components/schemas/A', description: 'd' }), { allOf: [{ $ref: '#/components/schemas/A' }], description: 'd' });
  assert.equal(schema30({ type: 'object', properties: { examples: { type: ['integer', 'null'] } } }), {
    type: 'object',
    properties: { examples: { type: 'integer', nullable: true } },
  });
});

for (const target of databaseTargets()) {
  const served = suite(`page documents served [${target.name}]`);

  served('GET /api/docs/modules/<module>: the module’s document, naming this host; an unknown module is a 404', async () => {
    const { client } = await sharedApp(target);
    const response = await client.get('/api/docs/modules/support');
    assert.is(response.status, 200, response.text.slice(0, 200));
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.is(response.headers['x-ratelimit-limit'], undefined, 'not rate limited');
    assert.is(response.body.openapi, '3.0.3');
    assert.equal(response.body.servers, [{ url: client.baseUrl, description: 'This installation' }]);
    assert.ok(response.body.paths[`${API_PREFIX}/support/banks`]);
    const missing = await client.get('/api/docs/modules/nothing-here');
    assert.is(missing.status, 404);
    assert.equal(missing.body, { message: 'The requested resource was not found.' });
  });

  served('the page’s selector offers every module, each at its own address', async () => {
    const { client } = await sharedApp(target);
    const script = await client.get('/api/docs/static/swagger-initializer.js');
    assert.is(script.status, 200);
    const urls = JSON.parse(/"urls":(\[[^\]]*\])/.exec(script.text)?.[1] ?? 'null') as Array<{ name: string; url: string }>;
    assert.equal(
      urls,
      modules.map((module) => ({ name: module.name, url: `/api/docs/modules/${module.slug}` })),
    );
  });

  served.run();
}

// The same on either database of a run on both (test/run.ts): run in the SQLite workers only.
if (inThisRun('sqlite')) test.run();
