// The check that lets a response be written by JSON.stringify (engine/serialize/fits-schema.ts):
// it says yes only when the response holds nothing its serializer schema would drop, and every
// generated route's documented responses can take it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toSerializerSchema } from '../../engine/serialize/route-serializers.ts';
import type { JsonSchema } from '../../engine/serialize/response-schemas.ts';
import { fitsSchema } from '../../engine/serialize/fits-schema.ts';
import { routeTable } from '../../engine/definition/route-table.ts';
import { buildApiDocument } from '../../src/http/api-docs.ts';
import { API_PREFIX, loadResources } from '../../src/app/build-app.ts';

const test = suite('fits schema');

const shared: Record<string, JsonSchema> = {
  Category: { $id: 'Category', type: 'object', nullable: true, properties: { id: {}, name: {}, parent: { $ref: 'Category#' } } },
  Uom: { $id: 'Uom', type: 'object', nullable: true, properties: { id: {}, name: {}, category: { $ref: 'Category#' }, tags: { type: 'array', items: {} } } },
};
const envelope: JsonSchema = { type: 'object', properties: { data: { $ref: 'Uom#' }, message: {} } };
const list: JsonSchema = { type: 'object', properties: { data: { type: 'array', items: { $ref: 'Uom#' } }, meta: { type: 'object', properties: { total: {} } } } };

test('a response that holds only declared properties fits, relations and lists included', () => {
  const fits = fitsSchema(envelope, shared)!;
  assert.ok(fits({ data: { id: 1, name: 'kg', category: { id: 2, name: 'Weight', parent: null }, tags: ['a'] }, message: 'done' }));
  assert.ok(fits({ data: null }), 'a nullable record');
  assert.ok(fits({ data: { id: 1, name: undefined } }), 'an undefined property is not written either way');
  assert.ok(fitsSchema(list, shared)!({ data: [{ id: 1 }, { id: 2, category: { id: 3, parent: { id: 4 } } }], meta: { total: 2 } }));
});

test('a property the schema does not declare, at any depth, does not fit', () => {
  const fits = fitsSchema(envelope, shared)!;
  assert.not.ok(fits({ data: { id: 1 }, debug: true }));
  assert.not.ok(fits({ data: { id: 1, password: 'secret' } }));
  assert.not.ok(fits({ data: { id: 1, category: { id: 2, parent: { id: 3, token: 'x' } } } }), 'two relations down');
  assert.not.ok(fitsSchema(list, shared)!({ data: [{ id: 1 }, { id: 2, secret: 1 }], meta: { total: 2 } }));
});

test('a value of another kind than its schema does not fit', () => {
  const fits = fitsSchema(envelope, shared)!;
  assert.not.ok(fits({ data: 'text' }));
  assert.not.ok(fits({ data: [{ id: 1 }] }));
  assert.not.ok(fits({ data: { id: 1, tags: 'a' } }));
  assert.not.ok(fits(null), 'the envelope is not nullable');
  assert.not.ok(fits({ data: new Date(0) }), 'a Date where a record goes: JSON.stringify would write its toJSON');
  assert.not.ok(fits({ data: Object.create({ inherited: 1 }) }), 'an object with a prototype of its own');
});

test('a constant fits only as itself (fast-json-stringify writes the constant whatever the value)', () => {
  const meta: JsonSchema = { type: 'object', properties: { total: {}, total_exact: { const: false } } };
  assert.ok(fitsSchema(meta, shared)!({ total: 5, total_exact: false }));
  assert.ok(fitsSchema(meta, shared)!({ total: 5 }));
  assert.not.ok(fitsSchema(meta, shared)!({ total: 5, total_exact: true }));
});

test('a scalar is written as it is, whatever it holds', () => {
  assert.ok(fitsSchema(envelope, shared)!({ data: { id: 1, name: { any: 'thing' } } }));
});

test('a schema with a form the check does not read has no check', () => {
  assert.is(fitsSchema({ anyOf: [{ type: 'object' }, {}] }, shared), undefined);
  assert.is(fitsSchema({ type: 'object', additionalProperties: { type: 'string' } }, shared), undefined);
  assert.is(fitsSchema({ $ref: 'Missing#' }, shared), undefined);
  assert.ok(fitsSchema({ type: 'object', additionalProperties: true }, shared)!({ any: 1 }), 'extra properties allowed by the schema');
});

test('a shared schema that cannot be checked leaves no check that reaches it, even through a cycle', () => {
  const cyclic: Record<string, JsonSchema> = {
    Order: { $id: 'Order', type: 'object', properties: { partner: { $ref: 'Partner#' }, note: { $ref: 'Note#' } } },
    Partner: { $id: 'Partner', type: 'object', properties: { last_order: { $ref: 'Order#' } } },
    Note: { $id: 'Note', anyOf: [{ type: 'string' }, { type: 'object' }] },
    Tag: { $id: 'Tag', type: 'object', properties: { name: {} } },
  };
  assert.is(fitsSchema({ $ref: 'Order#' }, cyclic), undefined);
  assert.is(fitsSchema({ $ref: 'Partner#' }, cyclic), undefined, 'Partner reaches Note through Order');
  assert.ok(fitsSchema({ $ref: 'Tag#' }, cyclic)!({ name: 'x' }));
  assert.not.ok(fitsSchema({ $ref: 'Tag#' }, cyclic)!({ name: 'x', secret: 1 }));
});

test('every documented success response of the registry has a check, and its example fits', () => {
  const registry = loadResources();
  const document = buildApiDocument(registry, API_PREFIX);
  const components = document.components.schemas as Record<string, JsonSchema>;
  const serializerShared: Record<string, JsonSchema> = {};
  for (const [name, component] of Object.entries(components)) {
    const schema = toSerializerSchema(component);
    serializerShared[name] = { $id: name, ...schema, ...(schema.type === 'object' && { nullable: true }) };
  }
  const resolve = (response: JsonSchema): JsonSchema =>
    response.$ref ? (document.components.responses as Record<string, JsonSchema>)[String(response.$ref).split('/').pop()!]! : response;
  let checked = 0;
  for (const def of registry.all()) {
    for (const route of routeTable(def, API_PREFIX)) {
      const operation = document.paths[route.path][route.method.toLowerCase()];
      for (const [status, response] of Object.entries(operation.responses as Record<string, JsonSchema>)) {
        if (!status.startsWith('2')) continue;
        const content = resolve(response).content?.['application/json'];
        if (!content?.schema) continue;
        const fits = fitsSchema(toSerializerSchema(content.schema), serializerShared);
        assert.ok(fits, `${route.method} ${route.path} ${status}: no check`);
        if (content.example !== undefined) assert.ok(fits(content.example), `${route.method} ${route.path} ${status}: its example does not fit`);
        checked++;
      }
    }
  }
  assert.ok(checked > 100, `${checked} responses checked`);
});

test.run();
