// What the interactive page loads: one document per module (Swagger UI's `urls` selector), each
// with the module's operations and only the components they reach, in OpenAPI 3.0's dialect
// (openapi-30.ts says why), and with related records shown by their fields. The complete 3.1
// document stays at /api/docs/openapi.json; these are views of it for people.
//
// Related records by their fields: a record's relations point at other records, whose relations
// point further (an invoice, its lines, their product, its category...). Swagger UI writes out
// the whole tree an opened operation reaches, so a record with many relations took 25 s to open.
// Here a related record (a relation, or the change feed's `record`) is its resource's
// `<Record>Fields`: its own fields, its relations left to its own schema. The resource's own
// answers (`data` of its envelopes) still show the whole record.
import type { Registry } from '../definition/registry.ts';
import { resourceNames } from '../definition/names.ts';
import { schemaNames, type JsonSchema } from '../serialize/response-schemas.ts';
import type { OpenApiDocument } from './openapi.ts';
import { toOpenApi30 } from './openapi-30.ts';

type Json = Record<string, any>;

export interface PageDocument {
  /** The module (a group of `x-tagGroups`): `Support`. */
  name: string;
  /** Its address segment: `support`, `keeping-in-sync`. */
  slug: string;
  document: OpenApiDocument;
}

const SCHEMA_REF = '#/components/schemas/';

/** One document per module of `x-tagGroups`, in their order. */
export function pageDocuments(document: OpenApiDocument, registry: Registry, fullDocumentUrl: string): PageDocument[] {
  const whole = withRelatedFields(document, registry);
  const groupOf = new Map<string, string>();
  for (const group of document['x-tagGroups'] as Array<{ name: string; tags: string[] }>) for (const tag of group.tags) groupOf.set(tag, group.name);
  return (document['x-tagGroups'] as Array<{ name: string; tags: string[] }>).map((group) => {
    const paths: Json = {};
    for (const [path, item] of Object.entries<Json>(whole.paths)) {
      for (const [method, operation] of Object.entries<Json>(item)) {
        if (groupOf.get(operation.tags?.[0]) !== group.name) continue;
        paths[path] ??= {};
        paths[path][method] = operation;
      }
    }
    const tags = new Set(group.tags);
    const moduleDocument = {
      ...whole,
      info: { ...whole.info, description: `${note(group.name, fullDocumentUrl)}\n\n${whole.info.description ?? ''}` },
      tags: (whole.tags as Array<{ name: string }>).filter((tag) => tags.has(tag.name)),
      'x-tagGroups': [group],
      paths,
      components: reachableComponents(paths, whole.components),
    };
    return { name: group.name, slug: slug(group.name), document: toOpenApi30(moduleDocument) };
  });
}

function note(module: string, fullDocumentUrl: string): string {
  return `> **${module}**: one module of the API; choose another at the top of the page. The complete OpenAPI 3.1 document, every module in one, is at [${fullDocumentUrl}](${fullDocumentUrl}); this page shows each module in OpenAPI 3.0 form, with related records by their own fields.`;
}

export function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The document with every record that appears inside another schema replaced by its `<Record>Fields`. */
function withRelatedFields(document: OpenApiDocument, registry: Registry): OpenApiDocument {
  const names = resourceNames(registry);
  const schemas: Record<string, JsonSchema> = document.components.schemas;
  const fieldsOf = new Map<string, string>();
  const envelopes = new Set<string>();
  const variants: Record<string, JsonSchema> = {};
  for (const def of registry.all()) {
    const n = schemaNames(names.get(def.name)!.schema);
    for (const envelope of [n.show, n.saved, n.list, n.collection, n.revealed]) envelopes.add(envelope);
    const record = schemas[n.record];
    if (!record) continue;
    const relations = new Set([...def.relations.values()].map((relation) => relation.outputKey));
    const fields = `${n.record}Fields`;
    fieldsOf.set(n.record, fields);
    const properties = Object.fromEntries(Object.entries<JsonSchema>(record.properties).filter(([name]) => !relations.has(name)));
    const strip = (example: unknown) => (example && typeof example === 'object' ? Object.fromEntries(Object.entries(example).filter(([name]) => !relations.has(name))) : example);
    variants[fields] = {
      ...record,
      title: `${record.title} (fields)`,
      description: `${record.description} Its own fields; its relations, when a nested include asks for them, are as in \`${n.record}\`.`,
      properties,
      ...(Array.isArray(record.examples) && { examples: record.examples.map(strip) }),
    };
  }
  const related = (schema: JsonSchema): JsonSchema =>
    replaceRefs(schema, (name) => {
      const fields = fieldsOf.get(name);
      return fields ? `${SCHEMA_REF}${fields}` : undefined;
    });
  const rewritten = Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, envelopes.has(name) ? schema : related(schema)]));
  return { ...document, components: { ...document.components, schemas: { ...rewritten, ...variants } } };
}

/** A copy of `value` with each `$ref` to a component schema that `to` names rewritten. */
function replaceRefs(value: any, to: (schema: string) => string | undefined, parentKey = ''): any {
  if (Array.isArray(value)) return value.map((entry) => replaceRefs(entry, to));
  if (!value || typeof value !== 'object') return value;
  const result: Json = {};
  for (const [key, entry] of Object.entries(value)) {
    const target = key === '$ref' && typeof entry === 'string' && entry.startsWith(SCHEMA_REF) ? to(entry.slice(SCHEMA_REF.length)) : undefined;
    result[key] = target ?? (isData(key, parentKey) ? entry : replaceRefs(entry, to, key));
  }
  return result;
}

/** Examples are data: a `$ref` key there is a value, not a reference (a property may be named `example`, though). */
function isData(key: string, parentKey: string): boolean {
  return (key === 'example' || key === 'examples') && parentKey !== 'properties';
}

/** The components `paths` reaches, directly or through other components (and every security scheme). */
function reachableComponents(paths: Json, components: Json): Json {
  const reached: Json = { securitySchemes: components.securitySchemes };
  const pending = [...references(paths)];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const reference = pending.pop()!;
    if (seen.has(reference)) continue;
    seen.add(reference);
    const [, , kind, name] = reference.split('/') as [string, string, string, string];
    const component = components[kind]?.[name];
    if (component === undefined) continue;
    reached[kind] ??= {};
    reached[kind][name] = component;
    pending.push(...references(component));
  }
  // The source's order: the page lists schemas as the document does.
  return Object.fromEntries(
    Object.entries(reached).map(([kind, entries]) => [
      kind,
      kind === 'securitySchemes'
        ? entries
        : Object.fromEntries(
            Object.keys(components[kind])
              .filter((name) => name in entries)
              .map((name) => [name, entries[name]]),
          ),
    ]),
  );
}

function references(value: unknown, found: Set<string> = new Set(), parentKey = ''): Set<string> {
  if (Array.isArray(value)) for (const entry of value) references(entry, found);
  else if (value && typeof value === 'object') {
    for (const [key, entry] of Object.entries(value)) {
      if (key === '$ref' && typeof entry === 'string' && entry.startsWith('#/components/')) found.add(entry);
      else if (!isData(key, parentKey)) references(entry, found, key);
    }
  }
  return found;
}
