// The schemas of what the API sends, which decide what is sent: every success response is
// written through its route's schema (route-serializers.ts), so a property they do not declare
// never leaves the service. One record schema per resource (every output field, every relation),
// its envelopes (show, saved, list), the pagination parts and the `{message}` of a deletion. The
// API reference (engine/docs) documents these same schemas, adding examples and the error shapes.
// References are written `#/components/schemas/<Name>`.
import type { Operation } from '../definition/format.ts';
import type { NameTable } from '../definition/names.ts';
import type { Registry } from '../definition/registry.ts';
import type { RouteSpec } from '../definition/route-table.ts';
import type { FieldDef, RelationDef, ResourceDef } from '../definition/types.ts';
import { MAX_PER_PAGE } from '../list/parse-list-query.ts';

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
    /** A collection action's answer: every record of the collection, unpaginated, and what was done. */
    collection: `${base}CollectionResponse`,
    /** The record with its `revealed` fields (a secret shown once), and its envelope. */
    revealedRecord: `${base}WithSecrets`,
    revealed: `${base}RevealedResponse`,
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

export const nullable = (schema: JsonSchema): JsonSchema => {
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'], ...(schema.enum && { enum: [...schema.enum, null] }) };
  return { anyOf: [schema, { type: 'null' }] };
};

/** The response components of every resource (records and envelopes) and the shared output parts. */
export function responseSchemas(registry: Registry, names: NameTable): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = { ...sharedOutputSchemas() };
  const nameOf = (resource: string) => names.get(resource)!.schema;
  for (const def of registry.all()) {
    const n = schemaNames(nameOf(def.name));
    schemas[n.record] = recordSchema(def, registry, nameOf);
    if (def.operations.has('show') || def.operations.has('update') || def.operations.has('create') || def.operations.has('restore')) {
      schemas[n.show] = envelope({ data: ref(n.record) }, `A ${def.label} record.`);
      schemas[n.saved] = envelope({ data: ref(n.record), message: { type: 'string' } }, `The ${def.label} record as stored, and what was done.`);
    }
    if (def.operations.has('list')) schemas[n.list] = listSchema(def, n.record);
    if (collectionAction(def)) {
      schemas[n.collection] = envelope(
        { data: { type: 'array', items: ref(n.record) }, message: { type: 'string' } },
        `Every ${def.label} record of the collection, and what was done.`,
      );
    }
    if (revealedFields(def).length > 0) {
      schemas[n.revealedRecord] = recordSchema(def, registry, nameOf, { revealed: true });
      schemas[n.revealed] = envelope(
        { data: ref(n.revealedRecord), message: { type: 'string' } },
        `The ${def.label} record as stored, with what is shown this once (${revealedFields(def)
          .map((field) => `\`${field.name}\``)
          .join(', ')}: keep it now, no other answer shows it), and what was done.`,
      );
    }
  }
  return schemas;
}

/** The resource's action on its collection (POST on the collection path), if it has one. */
export function collectionAction(def: ResourceDef) {
  return [...def.actions.values()].find((action) => action.on === 'collection');
}

/** Fields shown only in the answer that sets them (a secret shown once). */
export function revealedFields(def: ResourceDef): FieldDef[] {
  return [...def.fields.values()].filter((field) => field.revealed);
}

/** Whether this route's answer shows the revealed fields: the create, and actions with `reveals`. */
export function revealsFields(def: ResourceDef, route: RouteSpec): boolean {
  if (revealedFields(def).length === 0) return false;
  if (route.action) {
    const action = def.actions.get(route.action)!;
    return action.reveals === true && (action.result ?? def.name) === def.name;
  }
  return route.operation === 'create';
}

/** What a route answers on success: its status and the component its body is written through. */
export interface SuccessResponse {
  status: 200 | 201;
  schema: string;
  /** Whether it carries a record (and then its ETag). */
  record: boolean;
}

export function successResponse(def: ResourceDef, route: RouteSpec, registry: Registry, names: NameTable): SuccessResponse {
  if (revealsFields(def, route)) return { status: route.action ? 200 : 201, schema: schemaNames(names.get(def.name)!.schema).revealed, record: true };
  if (route.action) {
    const action = def.actions.get(route.action)!;
    if (action.on === 'collection') return { status: 200, schema: schemaNames(names.get(def.name)!.schema).collection, record: false };
    const result = registry.get(action.result ?? def.name);
    return { status: action.creates ? 201 : 200, schema: schemaNames(names.get(result.name)!.schema).saved, record: true };
  }
  const n = schemaNames(names.get(def.name)!.schema);
  switch (route.operation as Operation) {
    case 'list':
      return { status: 200, schema: n.list, record: false };
    case 'show':
      return { status: 200, schema: n.show, record: true };
    case 'create':
      return { status: 201, schema: n.saved, record: true };
    case 'update':
    case 'restore':
      return { status: 200, schema: n.saved, record: true };
    default:
      return { status: 200, schema: SHARED.message, record: false };
  }
}

function envelope(properties: Record<string, JsonSchema>, description: string): JsonSchema {
  return { type: 'object', description, properties, required: Object.keys(properties), additionalProperties: false };
}

/** The response record: every output field, always present, and every relation, present when loaded. */
export function recordSchema(def: ResourceDef, registry: Registry, nameOf: (resource: string) => string, { revealed = false } = {}): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of def.fields.values()) {
    if (!field.output && !(revealed && field.revealed)) continue;
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
  };
}

/** The type of a field in responses, as record.ts writes it. */
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
  if (!field.writable) notes.push(...(field.keyWords ?? []));
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

function listSchema(def: ResourceDef, record: string): JsonSchema {
  return {
    type: 'object',
    description: `A page of ${def.label} records.`,
    properties: { data: { type: 'array', items: ref(record) }, links: ref(SHARED.links), meta: ref(SHARED.meta) },
    required: ['data', 'links', 'meta'],
    additionalProperties: false,
  };
}

/** The pagination parts of a list envelope and the `{message}` of a deletion. */
function sharedOutputSchemas(): Record<string, JsonSchema> {
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
  };
}

const FORMAT_NAMES = { email: 'an e-mail address', url: 'an http(s) URL', 'hex-color': 'a hex colour (`#rrggbb`)', 'time-zone': 'an IANA time zone (`Europe/Zurich`)' };

function capitalize(text: string): string {
  return text[0]!.toUpperCase() + text.slice(1);
}
