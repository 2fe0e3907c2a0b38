// The JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of the API reference, as named components:
// the response schemas the routes answer through (engine/serialize/response-schemas.ts) with their
// examples, each resource's request bodies (from the TypeBox schemas that validate them), and the
// error shapes.
import type { Registry } from '../definition/registry.ts';
import type { FieldDef, ResourceDef } from '../definition/types.ts';
import { createBodySchema, updateBodySchema, writableFields } from '../schema/body-schemas.ts';
import { DEFAULT_PER_PAGE } from '../list/parse-list-query.ts';
import { createExample, inputExample, recordExample } from './examples.ts';
import type { NameTable } from '../definition/names.ts';
import { ref, responseSchemas, schemaNames, SHARED, type JsonSchema } from '../serialize/response-schemas.ts';

/** Every component schema of the API: the response schemas the routes answer through, with examples, the request bodies and the error shapes. */
export function componentSchemas(registry: Registry, names: NameTable): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = { ...responseSchemas(registry, names), ...errorSchemas() };
  const nameOf = (resource: string) => names.get(resource)!.schema;
  for (const def of registry.all()) {
    const n = schemaNames(nameOf(def.name));
    schemas[n.record] = { ...schemas[n.record], examples: [recordExample(def, registry)] };
    if (def.operations.has('create')) schemas[n.create] = requestSchema(def, registry, 'create', nameOf);
    if (def.operations.has('update')) schemas[n.update] = requestSchema(def, registry, 'update', nameOf);
  }
  // Entries of `records` fields: the child resource's own body rules.
  for (const def of registry.all()) {
    for (const field of writableFields(def)) {
      if (field.type !== 'records' || !field.relation) continue;
      const child = registry.get(def.relations.get(field.relation)!.resource);
      const n = schemaNames(nameOf(child.name));
      schemas[n.entry] ??= entrySchema(child, registry, nameOf);
    }
  }
  return schemas;
}

// ---------------------------------------------------------------------------------------------
// Request bodies

/**
 * The create or update body: the TypeBox schema the engine validates with (engine/schema), plus
 * what the schema cannot say (references, uniqueness, defaults, examples) as annotations, and the
 * child resource's rules for the entries of `records` fields.
 */
export function requestSchema(def: ResourceDef, registry: Registry, mode: 'create' | 'update', nameOf: (resource: string) => string): JsonSchema {
  const typebox = mode === 'create' ? createBodySchema(def) : updateBodySchema(def);
  const schema = JSON.parse(JSON.stringify(typebox)) as JsonSchema;
  for (const field of writableFields(def)) {
    const property = schema.properties[field.name];
    if (!property) continue;
    schema.properties[field.name] = annotateInput(property, field, def, nameOf, mode);
    if (field.example !== undefined) schema.properties[field.name].examples = [inputExample(field, def, registry)];
  }
  schema.title = `${def.label} (${mode})`;
  schema.description =
    mode === 'create'
      ? `The fields of a new ${def.label}. Unknown keys are ignored; strings are trimmed and an empty string counts as null.`
      : `Only the fields sent change (PUT and PATCH alike). Required fields may be left out but not set to null. Unknown keys are ignored.`;
  return schema;
}

function annotateInput(property: JsonSchema, field: FieldDef, def: ResourceDef, nameOf: (resource: string) => string, mode: 'create' | 'update'): JsonSchema {
  const notes: string[] = [];
  if (field.description) notes.push(`${capitalize(field.description)}.`);
  if (field.required) notes.push(mode === 'create' ? 'Required.' : 'Required on create; may be left out, never null.');
  if (field.references) notes.push(`Must be the id of an existing \`${field.references}\` record.`);
  if (field.numericString) notes.push('Digits sent as a string are accepted too.');
  if (field.unique) notes.push(field.unique === 'live' ? 'Unique among live records (a trashed one may share it).' : 'Unique.');
  if (field.until) notes.push(`Start of a range ending at \`${field.until}\`: both are sent together, and this one is not after it.`);
  if (field.type === 'decimal') notes.push(`Stored and returned with ${field.scale ?? 2} decimal places.`);
  if (field.type === 'boolean') notes.push('true, false, 1 or 0.');
  if (field.type === 'date') notes.push('YYYY-MM-DD.');
  if (field.default !== undefined && field.defaultFrom === undefined) notes.push(`Default: ${JSON.stringify(field.default)}.`);
  notes.push(...(field.keyWords ?? []));
  if (def.parent && field.name === def.parent.foreignKey) notes.push(`On create the parent from the path (\`${def.parent.param}\`) wins.`);
  let result = property;
  if (field.type === 'ids') {
    const relation = def.relations.get(field.relation!)!;
    const what = field.by ? `The \`${field.by}\` values of` : 'Ids of';
    notes.push(`${what} \`${relation.resource}\` records; the list replaces the whole set (an empty list clears it). At most ${field.maxItems} (repeats count once).`);
    result = withMaxItems(result, field.maxItems!);
  }
  if (field.type === 'records') {
    const relation = def.relations.get(field.relation!)!;
    notes.push(
      `Child records written with this one. An entry with the id of one of its children updates that child; an entry without one creates a child; on update, children left out are deleted.`,
    );
    result = withItems(property, ref(schemaNames(nameOf(relation.resource)).entry));
  }
  if (notes.length > 0) result = { ...result, description: notes.join(' ') };
  if (field.default !== undefined && mode === 'create') result = { ...result, default: field.default };
  return result;
}

/** Sets `maxItems` on an array schema, also inside its nullable `anyOf`. */
function withMaxItems(schema: JsonSchema, maxItems: number): JsonSchema {
  if (schema.type === 'array') return { ...schema, maxItems };
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: schema.anyOf.map((option: JsonSchema) => withMaxItems(option, maxItems)) };
  return schema;
}

/** Replaces the `items` of an array schema, also inside its nullable `anyOf`. */
function withItems(schema: JsonSchema, items: JsonSchema): JsonSchema {
  if (schema.type === 'array') return { ...schema, items };
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: schema.anyOf.map((option: JsonSchema) => withItems(option, items)) };
  return schema;
}

/** One entry of a records field: the child's create rules, or its update rules with an `id`. */
function entrySchema(child: ResourceDef, registry: Registry, nameOf: (resource: string) => string): JsonSchema {
  const create = requestSchema(child, registry, 'create', nameOf);
  const update = requestSchema(child, registry, 'update', nameOf);
  const id = { type: 'integer', minimum: 1, description: `Id of an existing ${child.label} of this record, to update it.` };
  return {
    title: `${child.label} entry`,
    description: `A new ${child.label} (its create rules), or a change to an existing one (its id, then only the fields sent change).`,
    anyOf: [
      { ...create, title: `New ${child.label}`, properties: { ...create.properties } },
      { ...update, title: `Changed ${child.label}`, properties: { id, ...update.properties }, required: ['id'] },
    ],
    examples: [createExample(child, registry, 1)],
  };
}

// ---------------------------------------------------------------------------------------------
// Lists

/** A list response with one record, as the list handler builds it. */
export function listExample(def: ResourceDef, registry: Registry): unknown {
  const path = `http://127.0.0.1:3000/admin/api/v1${def.path.replace(/\{[a-z_]+\}/g, '1')}`;
  return {
    data: [recordExample(def, registry)],
    links: { first: `${path}?page=1`, last: `${path}?page=1`, prev: null, next: null },
    meta: {
      current_page: 1,
      from: 1,
      last_page: 1,
      links: [
        { url: null, label: '&laquo; Previous', page: null, active: false },
        { url: `${path}?page=1`, label: '1', page: 1, active: true },
        { url: null, label: 'Next &raquo;', page: null, active: false },
      ],
      path,
      per_page: DEFAULT_PER_PAGE,
      to: 1,
      total: 1,
    },
  };
}

/** The bodies of errors: a message, or a validation failure with its fields. */
function errorSchemas(): Record<string, JsonSchema> {
  return {
    [SHARED.error]: {
      type: 'object',
      description: 'Every error but a validation failure: a message for people.',
      properties: {
        message: { type: 'string' },
        request_id: { type: 'string', description: 'On a 500: the id of the request (also in X-Request-Id) to quote when reporting it.' },
      },
      required: ['message'],
      additionalProperties: false,
      examples: [{ message: 'The requested resource was not found.' }],
    },
    [SHARED.validationError]: {
      type: 'object',
      description:
        'A validation failure (422): `message` is the first error, with "(and N more errors)" when there are more; `errors` lists every message per field (nested fields as `lines.0.product_id`).',
      properties: {
        message: { type: 'string' },
        errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' }, minItems: 1 } },
      },
      required: ['message', 'errors'],
      additionalProperties: false,
      examples: [{ message: 'The name field is required.', errors: { name: ['The name field is required.'] } }],
    },
  };
}

function capitalize(text: string): string {
  return text[0]!.toUpperCase() + text.slice(1);
}
