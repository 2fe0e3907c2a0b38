// The response schemas (./response-schemas.ts, which the API reference documents), attached to
// the generated routes so that Fastify serializes every success response through them: a
// property they do not declare is never sent (a response that holds none is written by
// JSON.stringify, any other by fast-json-stringify). The components become Fastify shared
// schemas (app.addSchema) and each route's `schema.response` is its success response. Only the success statuses: an
// error body is built whole by the error handler ({message, errors?, request_id?}) and written by
// JSON.stringify. A route's one success status is keyed `2xx`, which Fastify looks up for any 2xx:
// a status-code key such as 200 makes V8 give the object a 316-slot (201: 316, 422: 650) array,
// and Fastify keeps three such objects per route (~3 MB over the registry's routes).
//
// Three mechanical rewrites keep the serializer honest without changing which properties exist:
// - `#/components/schemas/X` becomes `X#` (Fastify's shared-schema references);
// - a nullable reference `anyOf: [{$ref}, {type: null}]` becomes a plain `{$ref}` and every
//   object component is `nullable: true`: fast-json-stringify then writes a null relation as null
//   directly, instead of validating the value against each `anyOf` branch at run time (and a
//   `$ref` with a `nullable` sibling, or separate nullable copies, makes it compile the record
//   graph many times over: seconds per envelope);
// - scalars lose their type and nothing is `required`: fast-json-stringify would otherwise coerce
//   (a null becomes "" or 0), throw on a value of another type (a 500) or on a missing property.
//   A scalar is written as the engine produced it (JSON.stringify), so a value that breaks the
//   document is sent as it is, and the conformance suite, which checks every response against
//   the document, reports it. Which properties exist is still the document's, and only that.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifySerializerCompiler } from 'fastify';
import fastJson from 'fast-json-stringify';
import type { Registry } from '../definition/registry.ts';
import { routeTable, type RouteSpec } from '../definition/route-table.ts';
import { fitsSchema, type FitsSchema } from './fits-schema.ts';
import { orderedResources, resourceNames } from '../definition/names.ts';
import { ref, responseSchemas, successResponse, type JsonSchema } from './response-schemas.ts';

const COMPONENT = '#/components/schemas/';
/** One serializer per shared schemas and route schema (see registerResponseSchemas). */
const serializers = new Map<string, (data: unknown) => string>();
const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);
/** Keywords fast-json-stringify does not need; dropped so that only the shape remains. */
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'example', 'readOnly', 'pattern', 'enum', 'minimum', 'maximum', 'minItems', 'uniqueItems', 'required', 'default']);

export interface RouteSerialization {
  /** `schema.response`: status → schema. */
  schema: { response: Record<string, JsonSchema> };
  /** One compiled serializer per distinct schema, shared by every route and status that uses it. */
  serializerCompiler: FastifySerializerCompiler<JsonSchema>;
}

/**
 * Adds the response components to the app as shared schemas and returns, for a generated route,
 * its response schemas and the compiler that serializes through them.
 */
export function registerResponseSchemas(app: FastifyInstance, registry: Registry, prefix: string): (route: RouteSpec) => RouteSerialization {
  const names = resourceNames(registry);
  const components = responseSchemas(registry, names);
  const byRoute = new Map<string, Record<string, JsonSchema>>();
  const used = new Set<string>();

  for (const def of orderedResources(registry)) {
    for (const route of routeTable(def, prefix)) {
      const schema = ref(successResponse(def, route, registry, names).schema);
      byRoute.set(key(route), { '2xx': toSerializerSchema(schema) });
      collectRefs(schema, components, used);
    }
  }

  const shared: Record<string, JsonSchema> = {};
  for (const name of used) {
    const schema = toSerializerSchema(components[name]!);
    shared[name] = { $id: name, ...schema, ...(schema.type === 'object' && { nullable: true }) };
    app.addSchema(shared[name]);
  }
  // Fastify asks for a serializer per route and status at boot; most are the same few envelopes
  // over a large graph of record schemas (tens of milliseconds each to compile). So each distinct
  // schema gets one serializer, shared by every route and status that uses it and compiled on its
  // first response: a route holds a reference, not a closure or a copy of its schema's text.
  // Keyed by content (Fastify hands the compiler its own copy of each route's schema) and by the
  // shared schemas, so apps built from the same registry in one process share them too.
  const sharedKey = createHash('sha1').update(JSON.stringify(shared)).digest('hex');
  const serializerCompiler: FastifySerializerCompiler<JsonSchema> = ({ schema }) => {
    const cacheKey = `${sharedKey} ${JSON.stringify(schema)}`;
    let serializer = serializers.get(cacheKey);
    if (!serializer) {
      serializer = compiledOnFirstUse(schema, shared);
      serializers.set(cacheKey, serializer);
    }
    return serializer;
  };
  return (route) => ({ schema: { response: byRoute.get(key(route)) ?? {} }, serializerCompiler });
}

const key = (route: RouteSpec) => `${route.method} ${route.path}`;

/**
 * A response that holds nothing the schema would drop is written by JSON.stringify (the same JSON,
 * without fast-json-stringify's garbage: engine/serialize/fits-schema.ts); any other goes through
 * fast-json-stringify, compiled the first time one does, which drops what is not declared.
 */
function compiledOnFirstUse(schema: JsonSchema, shared: Record<string, JsonSchema>): (data: unknown) => string {
  let serialize: ((data: unknown) => string) | undefined;
  let fits: FitsSchema | undefined | null = null;
  return (data: unknown) => {
    if (fits === null) fits = fitsSchema(schema, shared);
    if (fits?.(data)) return JSON.stringify(data);
    serialize ??= fastJson(schema as any, { schema: shared as any });
    return serialize(data);
  };
}

/** Every component a schema refers to, directly or through other components. */
function collectRefs(schema: unknown, components: Record<string, JsonSchema>, found: Set<string>): void {
  if (Array.isArray(schema)) {
    for (const item of schema) collectRefs(item, components, found);
    return;
  }
  if (!schema || typeof schema !== 'object') return;
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT)) {
      const name = value.slice(COMPONENT.length);
      if (!found.has(name)) {
        found.add(name);
        collectRefs(components[name], components, found);
      }
    } else if (keyword !== 'examples') {
      collectRefs(value, components, found);
    }
  }
}

/** The documented schema in the form Fastify's serializer reads (see the header). */
export function toSerializerSchema(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.anyOf) && schema.anyOf.length === 2) {
    const [value, nothing] = schema.anyOf[1]?.type === 'null' ? schema.anyOf : [...schema.anyOf].reverse();
    if (nothing?.type === 'null' && value?.$ref) return toSerializerSchema(value);
  }
  const result: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    if (keyword === 'format') continue;
    if (keyword === '$ref') result.$ref = String(value).startsWith(COMPONENT) ? `${String(value).slice(COMPONENT.length)}#` : value;
    else if (keyword === 'type') {
      const types = [value].flat() as string[];
      if (!types.every((type) => SCALARS.has(type) || type === 'null')) result.type = value;
    } else if (keyword === 'properties')
      result.properties = Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([name, property]) => [name, toSerializerSchema(property)]));
    else if ((keyword === 'items' || keyword === 'additionalProperties') && value && typeof value === 'object') result[keyword] = toSerializerSchema(value);
    else if (keyword === 'anyOf' || keyword === 'oneOf' || keyword === 'allOf') result[keyword] = (value as JsonSchema[]).map(toSerializerSchema);
    else result[keyword] = value;
  }
  return result;
}
