// The JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of everything the API sends and accepts,
// as named components: one record schema per resource, its request bodies (from the TypeBox
// schemas that validate them), its envelopes, and the shared pagination and error shapes.
// References are written `#/components/schemas/<Name>`; serializer-schemas.ts rewrites them for
// Fastify's shared schemas.
import type { Registry } from '../definition/registry.ts';
import type { FieldDef, RelationDef, ResourceDef } from '../definition/types.ts';
import { createBodySchema, updateBodySchema, writableFields } from '../schema/body-schemas.ts';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../list/parse-list-query.ts';
import { createExample, inputExample, recordExample } from './examples.ts';
import type { NameTable } from './names.ts';

export type JsonSchema = Record<string, any>;

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** Component names of one resource. */
export function schemaNames(base: string) {
  return {
    record: base,
    create: `${base}CreateRequest`,
    update: `${base}UpdateRequest`,
    /** A records field's entry: a new child, or a change to an existing one (with its id). */
    entry: `${base}Entry`,
    show: `${base}Response`,
    saved: `${base}SavedResponse`,
    list: `${base}ListResponse`,
  };
}

export const SHARED = {
  message: 'MessageResponse',
  error: 'Error',
  validationError: 'ValidationError',
  links: 'PaginationLinks',
  meta: 'PaginationMeta',
  metaLink: 'PaginationMetaLink',
} as const;

const nullable = (schema: JsonSchema): JsonSchema => {
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'], ...(schema.enum && { enum: [...schema.enum, null] }) };
  return { anyOf: [schema, { type: 'null' }] };
};

/** Every component schema of the API, built from the registry. */
export function componentSchemas(registry: Registry, names: NameTable): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = { ...sharedSchemas() };
  const nameOf = (resource: string) => names.get(resource)!.schema;
  for (const def of registry.all()) {
    const n = schemaNames(nameOf(def.name));
    schemas[n.record] = recordSchema(def, registry, nameOf);
    if (def.operations.has('create')) schemas[n.create] = requestSchema(def, registry, 'create', nameOf);
    if (def.operations.has('update')) schemas[n.update] = requestSchema(def, registry, 'update', nameOf);
    if (def.operations.has('show') || def.operations.has('update') || def.operations.has('create') || def.operations.has('restore')) {
      schemas[n.show] = envelope({ data: ref(n.record) }, `A ${def.label} record.`);
      schemas[n.saved] = envelope({ data: ref(n.record), message: { type: 'string' } }, `The ${def.label} record as stored, and what was done.`);
    }
    if (def.operations.has('list')) schemas[n.list] = listSchema(def, n.record);
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

function envelope(properties: Record<string, JsonSchema>, description: string): JsonSchema {
  return { type: 'object', description, properties, required: Object.keys(properties), additionalProperties: false };
}

// ---------------------------------------------------------------------------------------------
// Records (responses)

/** The response record: every output field, always present, and every relation, present when loaded. */
export function recordSchema(def: ResourceDef, registry: Registry, nameOf: (resource: string) => string): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of def.fields.values()) {
    if (!field.output) continue;
    properties[field.name] = outputFieldSchema(field, def);
    required.push(field.name);
  }
  for (const relation of def.relations.values()) properties[relation.outputKey] = relationSchema(def, relation, registry, nameOf);
  return {
    type: 'object',
    title: def.label,
    description: [def.description, `A ${def.label} record (\`${def.name}\`).`].filter(Boolean).join(' '),
    properties,
    required,
    additionalProperties: false,
    examples: [recordExample(def, registry)],
  };
}

/** The type of a field in responses, as serialize/record.ts writes it. */
export function outputFieldSchema(field: FieldDef, def: ResourceDef): JsonSchema {
  const notes: string[] = [];
  if (field.description) notes.push(`${capitalize(field.description)}.`);
  let schema: JsonSchema;
  switch (field.type) {
    case 'integer':
      schema = { type: 'integer' };
      break;
    case 'number':
      schema = { type: 'number' };
      break;
    case 'decimal': {
      const scale = field.scale ?? 2;
      schema = { type: 'string', pattern: scale > 0 ? `^-?[0-9]+\\.[0-9]{${scale}}$` : '^-?[0-9]+$' };
      notes.push(`Decimal as a string with ${scale} decimal places (sent as a number).`);
      break;
    }
    case 'boolean':
      schema = { type: 'boolean' };
      break;
    case 'date':
      schema = { type: 'string', format: 'date-time' };
      notes.push('A date, returned as midnight UTC.');
      break;
    case 'datetime':
      schema = { type: 'string', format: 'date-time' };
      notes.push('UTC, with microseconds.');
      break;
    case 'strings':
      schema = { type: 'array', items: { type: 'string' } };
      break;
    default:
      // No `enum` or `format` here: they are rules on what a client sends, and a stored value may
      // come from elsewhere (seed data, another resource on the same table). Described instead.
      schema = { type: 'string' };
      if (field.enum) notes.push(`Written through this resource as one of: ${field.enum.map((value) => `\`${value}\``).join(', ')}.`);
      if (field.format) notes.push(`Written through this resource as ${FORMAT_NAMES[field.format]}.`);
  }
  if (field.computed) notes.push('Computed; read-only.');
  if (field.references) notes.push(`Id of a \`${field.references}\` record.`);
  if (def.parent && field.name === def.parent.foreignKey) notes.push(`The parent \`${def.parent.resource}\` record (path parameter \`${def.parent.param}\`).`);
  if (field.name === 'deleted_at') notes.push('Null unless the record is soft-deleted.');
  if (field.name === 'creator_id') notes.push('The user who created the record.');
  // `id` is never null; every other field is as nullable as its definition says: the serializer
  // writes what is stored, and a column the definition leaves nullable may hold null.
  const isNullable = field.name !== 'id' && field.nullable && field.type !== 'strings';
  const result = isNullable ? nullable(schema) : schema;
  if (notes.length > 0) result.description = notes.join(' ');
  if (!field.writable) result.readOnly = true;
  return result;
}

function relationSchema(def: ResourceDef, relation: RelationDef, registry: Registry, nameOf: (resource: string) => string): JsonSchema {
  const target = registry.get(relation.resource);
  const embedded = def.embed.includes(relation.name);
  const includable = def.allowedIncludes.has(relation.name);
  const how = embedded
    ? 'Always present in this resource’s own responses.'
    : includable
      ? `Present with \`include=${relation.name}\`.`
      : `Present when a nested include names \`${relation.name}\`.`;
  if (relation.kind === 'belongsTo') {
    return {
      description: `The ${target.label} (\`${relation.resource}\`) \`${relation.foreignKey}\` points at; null when it is not set. ${how}`,
      ...nullable(ref(nameOf(relation.resource))),
    };
  }
  const what = relation.kind === 'hasMany' ? `${target.label} records whose \`${relation.foreignKey}\` is this record` : `Related ${target.label} records`;
  return { type: 'array', description: `${what}${target.softDelete ? ' (not trashed)' : ''}. ${how}`, items: ref(nameOf(relation.resource)) };
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
  if (field.unique) notes.push('Unique.');
  if (field.type === 'decimal') notes.push(`Stored and returned with ${field.scale ?? 2} decimal places.`);
  if (field.type === 'boolean') notes.push('true, false, 1 or 0.');
  if (field.type === 'date') notes.push('YYYY-MM-DD.');
  if (field.default !== undefined) notes.push(`Default: ${JSON.stringify(field.default)}.`);
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

function listSchema(def: ResourceDef, record: string): JsonSchema {
  return {
    type: 'object',
    description: `A page of ${def.label} records.`,
    properties: { data: { type: 'array', items: ref(record) }, links: ref(SHARED.links), meta: ref(SHARED.meta) },
    required: ['data', 'links', 'meta'],
    additionalProperties: false,
  };
}

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

function sharedSchemas(): Record<string, JsonSchema> {
  // Not `format: uri`: like the original's, the links keep `filter[...]` brackets unescaped.
  const url = { type: 'string', description: 'An absolute URL.' };
  return {
    [SHARED.links]: {
      type: 'object',
      description: 'Page links; they keep the request’s filters, sort, include and per_page.',
      properties: { first: url, last: url, prev: nullable(url), next: nullable(url) },
      required: ['first', 'last', 'prev', 'next'],
      additionalProperties: false,
    },
    [SHARED.metaLink]: {
      type: 'object',
      description: 'One entry of the page navigation: previous, the pages (with `...` gaps), next.',
      properties: {
        url: nullable(url),
        label: { type: 'string', examples: ['1', '...', '&laquo; Previous', 'Next &raquo;'] },
        page: { type: ['integer', 'null'] },
        active: { type: 'boolean' },
      },
      required: ['url', 'label', 'page', 'active'],
      additionalProperties: false,
    },
    [SHARED.meta]: {
      type: 'object',
      properties: {
        current_page: { type: 'integer', minimum: 1 },
        from: { type: ['integer', 'null'], description: 'Position of the first record of the page; null when the page is empty.' },
        last_page: { type: 'integer', minimum: 1 },
        links: { type: 'array', items: ref(SHARED.metaLink) },
        path: { ...url, description: 'The list URL without query string.' },
        per_page: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE },
        to: { type: ['integer', 'null'] },
        total: { type: 'integer', minimum: 0 },
        total_exact: {
          type: 'boolean',
          const: false,
          description:
            'Present (false) only when the count stopped at its bound, LIST_COUNT_AHEAD rows (10,000 by default) past the requested page: `total` and `last_page` are then lower bounds, and every page they name exists. Absent: `total` is exact.',
        },
      },
      required: ['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total'],
      additionalProperties: false,
    },
    [SHARED.message]: {
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
      additionalProperties: false,
      examples: [{ message: 'Bank deleted successfully.' }],
    },
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

const FORMAT_NAMES = { email: 'an e-mail address', url: 'an http(s) URL', 'hex-color': 'a hex colour (`#rrggbb`)' };

function capitalize(text: string): string {
  return text[0]!.toUpperCase() + text.slice(1);
}
