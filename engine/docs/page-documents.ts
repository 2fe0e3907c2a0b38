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
// answers (`data` of its envelopes) still show the whole record. A choice among many schemas (the
// change feed's `record`) names them instead of drawing each.
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
  /** Its document, built on the first call (a page shows one module at a time). */
  document(): OpenApiDocument;
}

const SCHEMA_REF = '#/components/schemas/';

/** One document per module of `x-tagGroups`, in their order. */
export function pageDocuments(document: OpenApiDocument, registry: Registry, fullDocumentUrl: string): PageDocument[] {
  const related = relatedRecords(document, registry);
  const groups = document['x-tagGroups'] as Array<{ name: string; tags: string[] }>;
  return groups.map((group) => {
    let built: OpenApiDocument | undefined;
    const build = () => {
      const tags = new Set(group.tags);
      const paths: Json = {};
      for (const [path, item] of Object.entries<Json>(document.paths)) {
        for (const [method, operation] of Object.entries<Json>(item)) {
          if (!tags.has(operation.tags?.[0])) continue;
          paths[path] ??= {};
          paths[path][method] = operation;
        }
      }
      return withRepeatsShared(
        toOpenApi30({
          ...document,
          info: { ...document.info, description: `${note(group.name, fullDocumentUrl)}\n\n${document.info.description ?? ''}` },
          tags: (document.tags as Array<{ name: string }>).filter((tag) => tags.has(tag.name)),
          'x-tagGroups': [group],
          paths,
          components: reachableComponents(paths, document.components, related),
        }),
      );
    };
    return {
      name: group.name,
      slug: slug(group.name),
      document: () => {
        built ??= build();
        return built;
      },
    };
  });
}

function note(module: string, fullDocumentUrl: string): string {
  return `> **${module}**: one module of the API; choose another at the top of the page. The complete OpenAPI 3.1 document, every module in one, is at [${fullDocumentUrl}](${fullDocumentUrl}); this page shows each module in OpenAPI 3.0 form, with related records by their own fields and long lists of alternatives by name.`;
}

export function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * The component schemas as the page shows them: `schema(name)` is the component with every record
 * inside it (a relation, the change feed's `record`) replaced by its `<Record>Fields`, which
 * `schema` also answers; a resource's envelopes keep the whole record. Built per schema, on demand.
 */
function relatedRecords(document: OpenApiDocument, registry: Registry): { schema(name: string): JsonSchema | undefined } {
  const names = resourceNames(registry);
  const schemas: Record<string, JsonSchema> = document.components.schemas;
  const fieldsOf = new Map<string, { record: string; relations: Set<string> }>();
  const recordFields = new Map<string, string>();
  const envelopes = new Set<string>();
  for (const def of registry.all()) {
    const n = schemaNames(names.get(def.name)!.schema);
    for (const envelope of [n.show, n.saved, n.list, n.collection, n.revealed]) envelopes.add(envelope);
    if (!schemas[n.record]) continue;
    fieldsOf.set(`${n.record}Fields`, { record: n.record, relations: new Set([...def.relations.values()].map((relation) => relation.outputKey)) });
    recordFields.set(n.record, `${n.record}Fields`);
  }
  const fieldsVariant = (record: string, relations: Set<string>): JsonSchema => {
    const schema = schemas[record]!;
    const own = (value: unknown) => (value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).filter(([name]) => !relations.has(name))) : value);
    return {
      ...schema,
      title: `${schema.title} (fields)`,
      description: `${schema.description} Its own fields; its relations, when a nested include asks for them, are as in \`${record}\`.`,
      properties: own(schema.properties),
      ...(Array.isArray(schema.examples) && { examples: schema.examples.map(own) }),
    };
  };
  const cache = new Map<string, JsonSchema | undefined>();
  return {
    schema(name) {
      if (!cache.has(name)) {
        const variant = fieldsOf.get(name);
        const schema = variant ? fieldsVariant(variant.record, variant.relations) : schemas[name];
        const shown =
          schema === undefined || envelopes.has(name)
            ? schema
            : alternativesByName(
                replaceRefs(schema, (target) => {
                  const fields = recordFields.get(target);
                  return fields ? `${SCHEMA_REF}${fields}` : undefined;
                }),
              );
        cache.set(name, shown);
      }
      return cache.get(name);
    },
  };
}

/** More alternatives than a reader scans (the change feed's `record`: one per resource) are named, not drawn. */
const MAX_ALTERNATIVES = 12;

/**
 * A copy of `value` where a choice among more than MAX_ALTERNATIVES schemas (`anyOf`/`oneOf` of
 * references) is an object whose description names them: Swagger UI would resolve and draw every
 * one (the change feed's took a second to open) for a list nobody reads on screen.
 */
function alternativesByName(value: any, parentKey = ''): any {
  if (Array.isArray(value)) return value.map((entry) => alternativesByName(entry));
  if (!value || typeof value !== 'object') return value;
  if (parentKey !== 'properties') {
    for (const key of ['anyOf', 'oneOf']) {
      const branches = value[key];
      if (!Array.isArray(branches) || branches.length <= MAX_ALTERNATIVES || !branches.every((branch) => typeof branch?.$ref === 'string')) continue;
      const { [key]: _branches, ...rest } = value;
      const names = branches.map((branch: Json) => `\`${String(branch.$ref).split('/').pop()}\``).join(', ');
      return { type: 'object', ...rest, description: `${rest.description ? `${rest.description} ` : ''}One of: ${names}.` };
    }
  }
  const result: Json = {};
  for (const [key, entry] of Object.entries(value)) result[key] = isData(key, parentKey) ? entry : alternativesByName(entry, key);
  return result;
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

/**
 * Parameters and responses that several operations repeat word for word (a resource's `include`,
 * `If-Match`, its 404) written once, under components, and referred to: a fifth less for the page
 * to download and parse. Their component names are not shown by the page.
 */
function withRepeatsShared(document: OpenApiDocument): OpenApiDocument {
  const operations = Object.values<Json>(document.paths).flatMap((item) => Object.values<Json>(item));
  const components: Json = { ...document.components };
  const share = (kind: 'parameters' | 'responses', entries: Array<[string, Json]>) => {
    const uses = new Map<string, number>();
    for (const [, entry] of entries) if (!entry.$ref) uses.set(JSON.stringify(entry), (uses.get(JSON.stringify(entry)) ?? 0) + 1);
    const names = new Map<string, string>();
    const taken = new Set(Object.keys(components[kind] ?? {}));
    for (const [label, entry] of entries) {
      const text = JSON.stringify(entry);
      if ((uses.get(text) ?? 0) < 2 || names.has(text)) continue;
      const base = label.replace(/[^A-Za-z0-9._-]+/g, '_');
      let name = base;
      for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
      taken.add(name);
      names.set(text, name);
      components[kind] = { ...components[kind], [name]: entry };
    }
    return (entry: Json) => {
      const name = entry.$ref ? undefined : names.get(JSON.stringify(entry));
      return name ? { $ref: `#/components/${kind}/${name}` } : entry;
    };
  };
  const parameter = share(
    'parameters',
    operations.flatMap((operation) => (operation.parameters ?? []).map((entry: Json) => [entry.name ?? '', entry] as [string, Json])),
  );
  const response = share(
    'responses',
    operations.flatMap((operation) => Object.entries<Json>(operation.responses ?? {}).map(([status, entry]) => [`Status${status}`, entry] as [string, Json])),
  );
  const paths = Object.fromEntries(
    Object.entries<Json>(document.paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries<Json>(item).map(([method, operation]) => [
          method,
          {
            ...operation,
            ...(operation.parameters && { parameters: operation.parameters.map(parameter) }),
            ...(operation.responses && { responses: Object.fromEntries(Object.entries<Json>(operation.responses).map(([status, entry]) => [status, response(entry)])) }),
          },
        ]),
      ),
    ]),
  );
  return { ...document, paths, components };
}

/** The components `paths` reaches, directly or through other components (and every security scheme), schemas as the page shows them. */
function reachableComponents(paths: Json, components: Json, related: { schema(name: string): JsonSchema | undefined }): Json {
  const reached: Json = { securitySchemes: components.securitySchemes };
  const pending = [...references(paths)];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const reference = pending.pop()!;
    if (seen.has(reference)) continue;
    seen.add(reference);
    const [, , kind, name] = reference.split('/') as [string, string, string, string];
    const component = kind === 'schemas' ? related.schema(name) : components[kind]?.[name];
    if (component === undefined) continue;
    reached[kind] ??= {};
    reached[kind][name] = component;
    pending.push(...references(component));
  }
  // The source's order (a record's fields variant after its record): the page lists schemas as the document does.
  const order = (kind: string, name: string) => {
    const names = Object.keys(components[kind] ?? {});
    const index = names.indexOf(name);
    return index >= 0 ? index : names.indexOf(name.replace(/Fields$/, '')) + 0.5;
  };
  return Object.fromEntries(
    Object.entries<Json>(reached).map(([kind, entries]) => [
      kind,
      kind === 'securitySchemes'
        ? entries
        : Object.fromEntries(
            Object.keys(entries)
              .sort((a, b) => order(kind, a) - order(kind, b))
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
