// The same document in OpenAPI 3.0's schema dialect, for the interactive page only. Swagger UI
// reads a 3.1 document through its ApiDOM resolver, which converts the whole document on every
// resolve (the page's load and each operation opened): seconds per click on this API. A 3.0
// document goes through its classic resolver, which resolves only the opened operation.
// The served document (/api/docs/openapi.json) stays 3.1; this translation says the same thing
// with 3.0's words, for the keywords the engine writes:
//   type: [T, 'null']                 → type: T, nullable: true
//   anyOf/oneOf with {type: 'null'}   → the other branches, nullable: true
//   anyOf of constants of one type    → enum
//   const: v                          → enum: [v]
//   examples: [a, ...] (in a schema)  → example: a
//   $ref with sibling keywords        → allOf: [{$ref}] beside them (3.0 ignores a $ref's siblings)
//   exclusiveMinimum/Maximum: n       → minimum/maximum: n with exclusiveMinimum/Maximum: true
// test/docs/page-documents.test.ts validates the result against the OpenAPI 3.0 schema.
import type { JsonSchema } from '../serialize/response-schemas.ts';
import type { OpenApiDocument } from './openapi.ts';

type Json = Record<string, any>;

/** The document with every schema written in 3.0's dialect and `openapi: 3.0.3`. */
export function toOpenApi30(document: OpenApiDocument): OpenApiDocument {
  const components: Json = { ...document.components };
  if (components.schemas) components.schemas = mapValues(components.schemas, schema30);
  if (components.parameters) components.parameters = mapValues(components.parameters, withSchemas);
  if (components.headers) components.headers = mapValues(components.headers, withSchemas);
  if (components.responses) components.responses = mapValues(components.responses, response30);
  return {
    ...document,
    openapi: '3.0.3',
    paths: mapValues(document.paths, (item: Json) => mapValues(item, (operation: Json) => operation30(operation))),
    components,
  };
}

function operation30(operation: Json): Json {
  if (!operation || typeof operation !== 'object' || Array.isArray(operation)) return operation;
  const result: Json = { ...operation };
  if (Array.isArray(operation.parameters)) result.parameters = operation.parameters.map(withSchemas);
  if (operation.requestBody) result.requestBody = withContent(operation.requestBody);
  if (operation.responses) result.responses = mapValues(operation.responses, response30);
  return result;
}

function response30(response: Json): Json {
  if (response.$ref) return response;
  const result = withContent(response);
  if (response.headers) result.headers = mapValues(response.headers, withSchemas);
  return result;
}

/** A request body or response: the schema of each media type. */
function withContent(holder: Json): Json {
  if (holder.$ref || !holder.content) return { ...holder };
  return { ...holder, content: mapValues(holder.content, withSchemas) };
}

/** A parameter, header or media type: its `schema`. */
function withSchemas(holder: Json): Json {
  if (holder.$ref || !holder.schema) return holder;
  return { ...holder, schema: schema30(holder.schema) };
}

/** One JSON Schema (2020-12, as the engine writes them) in 3.0's dialect. */
export function schema30(input: JsonSchema): JsonSchema {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
  let schema: Json = { ...input };

  for (const key of ['properties', 'patternProperties']) if (schema[key]) schema[key] = mapValues(schema[key], schema30);
  for (const key of ['items', 'not']) if (isSchema(schema[key])) schema[key] = schema30(schema[key]);
  if (isSchema(schema.additionalProperties)) schema.additionalProperties = schema30(schema.additionalProperties);
  for (const key of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(schema[key])) schema[key] = schema[key].map(schema30);

  if ('const' in schema) {
    const { const: value, ...rest } = schema;
    schema = { ...rest, enum: [value] };
  }
  if (Array.isArray(schema.examples)) {
    const { examples, ...rest } = schema;
    schema = examples.length > 0 && !('example' in rest) ? { ...rest, example: examples[0] } : rest;
  }
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof schema[exclusive] === 'number') schema = { ...schema, [bound]: schema[exclusive], [exclusive]: true };
  }
  if (Array.isArray(schema.type)) schema = fromTypeList(schema);
  for (const key of ['anyOf', 'oneOf'] as const) if (Array.isArray(schema[key])) schema = withoutNullBranch(schema, key);
  if (Array.isArray(schema.anyOf)) schema = constantsAsEnum(schema);
  if (schema.$ref && Object.keys(schema).length > 1) {
    const { $ref, ...rest } = schema;
    schema = { allOf: [{ $ref }], ...rest };
  }
  return schema;
}

/** `type: [T, 'null']` → `type: T, nullable: true`; several types become `anyOf` branches. */
function fromTypeList(schema: Json): Json {
  const { type, ...rest } = schema;
  const types = (type as string[]).filter((name) => name !== 'null');
  const nullable = types.length < type.length;
  const enumValues = Array.isArray(rest.enum) && nullable ? { enum: rest.enum.filter((value: unknown) => value !== null) } : {};
  if (types.length === 1) return { ...rest, type: types[0], ...enumValues, ...(nullable && { nullable: true }) };
  return { ...rest, ...enumValues, anyOf: types.map((name) => ({ type: name })), ...(nullable && { nullable: true }) };
}

/** `anyOf: [X, {type: 'null'}]` → X, nullable (a lone `$ref` kept under `allOf`). */
function withoutNullBranch(schema: Json, key: 'anyOf' | 'oneOf'): Json {
  const branches: Json[] = schema[key];
  const others = branches.filter((branch) => !(branch.type === 'null' && Object.keys(branch).length === 1));
  if (others.length === branches.length) return schema;
  const { [key]: _removed, ...rest } = schema;
  if (others.length === 0) return { ...rest, nullable: true };
  if (others.length > 1) return { ...rest, [key]: others, nullable: true };
  const only = others[0]!;
  if (only.$ref) return { ...rest, allOf: [only], nullable: true };
  const clash = Object.keys(only).some((name) => name in rest && name !== 'description');
  if (clash) return { ...rest, allOf: [only], nullable: true };
  return { ...only, ...rest, nullable: true };
}

/** `anyOf` of `{const, type}` branches of one type (TypeBox's union of literals) → `enum`. */
function constantsAsEnum(schema: Json): Json {
  const branches: Json[] = schema.anyOf;
  const constant = (branch: Json) => Array.isArray(branch.enum) && branch.enum.length === 1 && Object.keys(branch).every((name) => name === 'enum' || name === 'type');
  const types = new Set(branches.map((branch) => branch.type));
  if (branches.length === 0 || !branches.every(constant) || types.size !== 1) return schema;
  const { anyOf: _branches, ...rest } = schema;
  return { type: branches[0]!.type, ...rest, enum: branches.map((branch) => branch.enum[0]) };
}

function isSchema(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapValues<T>(object: Record<string, T>, map: (value: T) => T): Record<string, T> {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, map(value)]));
}
