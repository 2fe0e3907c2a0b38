// The OpenAPI 3.1 document of the API, generated from the registry at boot: every generated
// route, plus the operations the app adds itself (login, logout, health, the docs), which it
// passes in as `service`.
import type { Registry } from '../definition/registry.ts';
import { MAX_PER_PAGE, DEFAULT_PER_PAGE } from '../list/parse-list-query.ts';
import { orderedResources, resourceNames } from '../definition/names.ts';
import { resourcePaths, type PathItems } from './operations.ts';
import { sharedHeaders, sharedParameters, sharedResponses } from './shared-components.ts';
import type { JsonSchema } from '../serialize/response-schemas.ts';
import { componentSchemas } from './schemas.ts';
import { changeFeedDocs } from './change-feed.ts';

export type OpenApiDocument = Record<string, any>;

export interface ServiceDocs {
  /** Paths the app serves outside the registry (full paths, OpenAPI placeholders). */
  paths: PathItems;
  /** Component schemas those paths refer to. */
  schemas: Record<string, JsonSchema>;
  /** Tags of those paths, in order, each with the module group it belongs to. */
  tags: Array<{ name: string; description: string; group: string }>;
}

export interface DocumentOptions {
  /** URL prefix of every resource path, e.g. /admin/api/v1. */
  prefix: string;
  title: string;
  version: string;
  description: string;
  service?: ServiceDocs;
  /** Group (module) names listed before the resource modules. */
  leadingGroups?: string[];
}

/** Builds the whole document. Pure: the same registry gives the same document. */
export function buildOpenApiDocument(registry: Registry, options: DocumentOptions): OpenApiDocument {
  const names = resourceNames(registry);
  const order = orderedResources(registry);
  const service = options.service ?? { paths: {}, schemas: {}, tags: [] };

  const feed = changeFeedDocs(registry, names, options.prefix);
  const tags: Array<{ name: string; description: string }> = service.tags.map(({ name, description }) => ({ name, description }));
  const groups = new Map<string, string[]>();
  for (const tag of service.tags) groups.set(tag.group, [...(groups.get(tag.group) ?? []), tag.name]);
  tags.push(feed.tag);
  groups.set('Keeping in sync', [feed.tag.name]);
  for (const def of order) {
    const { tag, module } = names.get(def.name)!;
    const parent = def.parent ? ` Nested under \`${def.parent.resource}\` (\`{${def.parent.param}}\`).` : '';
    tags.push({
      name: tag,
      description: `${def.description ? `${def.description} ` : ''}\`${options.prefix}${def.path}\` — resource \`${def.name}\`.${parent}`,
    });
    groups.set(module, [...(groups.get(module) ?? []), tag]);
  }

  const groupOrder = [...(options.leadingGroups ?? []), ...groups.keys()].filter((name, index, all) => all.indexOf(name) === index && groups.has(name));
  return {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version, description: options.description },
    // Relative: the interactive reference and generated clients send requests to the host that
    // served the document. The served copy names that host (see engine/docs/docs-routes.ts).
    servers: [{ url: '/', description: 'The installation serving this document' }],
    security: [{ bearerAuth: [] }],
    tags,
    'x-tagGroups': groupOrder.map((name) => ({ name, tags: groups.get(name)! })),
    paths: { ...service.paths, ...feed.paths, ...resourcePaths(registry, names, options.prefix, order) },
    components: {
      schemas: { ...service.schemas, ...feed.schemas, ...componentSchemas(registry, names) },
      parameters: sharedParameters(),
      responses: sharedResponses(),
      headers: sharedHeaders(),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: `The \`token\` from \`POST ${options.prefix}/login\`, sent as \`Authorization: Bearer <token>\`. \`POST ${options.prefix}/logout\` revokes it.`,
        },
      },
    },
  };
}

/** The part of the introduction the engine knows about: lists, envelopes, errors, formats. */
export function conventions(prefix: string): string {
  return `## Conventions

- **Envelopes.** Show \`{data}\`; create 201 \`{data, message}\`; update and restore \`{data, message}\`; delete \`{message}\`; list \`{data, links, meta}\`.
- **Lists.** \`page\` (from 1), \`per_page\` (default ${DEFAULT_PER_PAGE}, at most ${MAX_PER_PAGE}: more is a 422), \`sort=-name,id\`, \`filter[name]=...\`, \`search=<terms>\` (each term the start of a word in the fields the resource searches, accents and case ignored), \`include=a,b\`. A comma list may also come as an array, as axios, qs and PHP send one: \`include[]=a&include[]=b\`, \`include[0]=a\`, \`filter[id][]=1\`. A date filter takes a day, an ISO week, a month, a quarter or a year (\`2026-12-05\`, \`2026-W49\`, \`2026-12\`, \`2026-Q4\`, \`2026\`: the keys of the grouped totals) or a range of them (\`2026-11..2026-12\`, either end open); on a datetime, the days of \`tz\` (default the company's time zone); a range filter takes numbers the same way (\`100..500\`, \`1000..\`, both ends included). Unknown filters, sorts or includes answer 400 with the allowed names. Page links keep the filters and sort. Soft-deleted records are hidden unless \`filter[trashed]\` asks for them. \`meta.total\` is exact unless the list goes on far past the page asked for (10,000 rows by default): then \`meta.total_exact\` is \`false\` and \`total\` and \`last_page\` are lower bounds.
- **Writes.** \`PUT\` and \`PATCH\` change only the fields sent. Create, update and restore accept \`include\` too. Unknown body keys are ignored; strings are trimmed and an empty string counts as null.
- **Formats.** Timestamps are UTC ISO 8601 with microseconds (\`2025-01-31T09:30:00.000000Z\`); decimals are strings with their scale (\`"0.0100"\`) and are sent as numbers; dates sent as \`YYYY-MM-DD\` come back as midnight UTC; ids are integers.
- **Errors** are always JSON: 422 \`{message, errors: {field: [...]}}\`; 400, 401, 403, 404, 405, 409, 413, 415 and 429 \`{message}\`; 500 \`{"message":"Server error occurred."}\`.
- **Rate limits.** \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` on every response under \`${prefix}\`; 429 with \`Retry-After\` past the limit.`;
}
