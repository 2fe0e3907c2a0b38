// The OpenAPI operation of a resource's import route: the three file formats as request bodies
// (with an example of each from the create's example), the query switches, and the report.
import type { Registry } from '../definition/registry.ts';
import type { ResourceDef } from '../definition/types.ts';
import { lowerLabel, operationId, plural, type NameTable } from '../definition/names.ts';
import { ref, SHARED, type JsonSchema } from '../serialize/response-schemas.ts';
import { createExample } from './examples.ts';
import { pathParameters } from './parameters.ts';
import { rateLimitHeaders } from './shared-components.ts';
import { ERROR_MESSAGES } from '../errors/messages.ts';
import { CSV, importPath, JSON_LINES, XLSX } from '../transfer/import/formats.ts';
import { idLists } from '../transfer/id-lists.ts';
import { nameColumns } from '../transfer/import/resolve-names.ts';
import { recordsFields } from '../transfer/records-fields.ts';
import { namedReferences } from '../transfer/references.ts';

/** Marks the import operations in the document: the Markdown and Postman builders list them with their resource. */
export const IMPORT_MARK = 'x-import';

const errorsSchema: JsonSchema = { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } };

/** The report an import answers with (200), and with a message when it wrote nothing (422). */
export const IMPORT_REPORT: JsonSchema = {
  type: 'object',
  required: ['message', 'rows', 'created', 'updated', 'rejected', 'dry_run'],
  properties: {
    message: { type: 'string' },
    rows: { type: 'integer', description: 'Records read from the file.' },
    created: { type: 'integer', description: 'Records created (in a dry run: that would be).' },
    updated: { type: 'integer', description: 'Records updated, by `id` or by the definition’s `upsertOn` columns.' },
    rejected: {
      type: 'array',
      description: 'Each rejected record: the line it starts on (a spreadsheet’s row; the header is line 1) and the errors a create (or update) of it answers.',
      items: { type: 'object', required: ['row', 'errors'], properties: { row: { type: 'integer' }, errors: errorsSchema } },
    },
    dry_run: { type: 'boolean' },
  },
};

/** The import operations of every resource that allows create, keyed by path. */
export function importPaths(registry: Registry, names: NameTable, prefix: string, order: ResourceDef[]): Record<string, Record<string, JsonSchema>> {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const def of order) if (def.operations.has('create')) paths[importPath(def, prefix)] = { post: importOperation(def, registry, names, prefix) };
  return paths;
}

function importOperation(def: ResourceDef, registry: Registry, names: NameTable, prefix: string): JsonSchema {
  const example = createExample(def, registry);
  if (def.parent) delete example[def.parent.foreignKey];
  const columns = Object.keys(example);
  const csvRow = columns.map((column) => csvCell(example[column])).join(',');
  const csv = `${columns.join(',')}\n${csvRow}\n`;
  const report = { message: `1 ${def.label} rows read: 1 were created, 0 were updated.`, rows: 1, created: 1, updated: 0, rejected: [], dry_run: false };
  const firstRequired = [...def.fields.values()].find((field) => field.writable && field.required && field.name !== def.parent?.foreignKey);
  const rejected = {
    message: '1 row of the file was rejected: nothing was imported.',
    rows: 2,
    created: 0,
    updated: 0,
    rejected: [{ row: 3, errors: firstRequired ? { [firstRequired.name]: [`The ${firstRequired.label} field is required.`] } : { record: ['…'] } }],
    dry_run: false,
  };
  const permissions = [...new Set([...(def.access.permissions.create ?? []), ...(def.access.permissions.update ?? [])])];
  const json = (example: unknown) => ({ 'application/json': { schema: IMPORT_REPORT, example } });
  return {
    [IMPORT_MARK]: true,
    tags: [names.get(def.name)!.tag],
    summary: `Import ${def.label} records from a file`,
    description: [
      `Creates (or updates) ${def.label} records from a CSV, JSON lines or .xlsx file, each row exactly as \`POST ${prefix}${def.path}\` would (validation, defaults, behaviours, permissions, company scope, the change feed). The CSV header names the fields as a create's body does; cells are read by the field's type (an empty cell is null; lists as JSON). A row with an \`id\` updates that record${def.upsertOn ? `, as does a row whose ${def.upsertOn.map((c) => `\`${c}\``).join(', ')} match an existing one` : ''}.`,
      'A relation may be given by name: a column named after it (`category`) holding the target’s `code` or `name`, instead of its id (a name several records share takes the id beside it when that is one of them).',
      ...recordsFields(def, registry).map(({ field, child }) => {
        const reference = namedReferences(child, registry)[0];
        const byName = reference ? ` (\`${reference.column}\` beside \`${reference.foreignKey}\`)` : '';
        return `\`${field.name}\`: the ${lowerLabel(plural(child.label))}, as a JSON list (in CSV and .xlsx the cell’s text), as the export writes them; their references may be given by name as the row’s are${byName}, their lists of ids as ids, names or \`{id, name}\`. A cell that is not a JSON list is that row’s error (\`${field.name}\`), as is a line’s (\`${field.name}.0.<field>\`).`;
      }),
      ...idLists(def, registry).map(({ field, target, namesColumn }) =>
        nameColumns(target).length > 0
          ? `\`${field.name}\`: the ids as JSON (\`[3,7]\`) or \`3,7\`; or \`${namesColumn}\`: the records' names as a JSON list (\`["VIP","Retail"]\`, as an export writes it), which win over the ids. A name that matches no record is that row's error (\`${namesColumn}\`).`
          : `\`${field.name}\`: the ids as JSON (\`[3,7]\`) or \`3,7\`.`,
      ),
      'All or nothing by default: one rejected row and nothing is written (422 with the report). `on_error=skip` writes the valid rows; `dry_run=1` checks every row and writes nothing. Bounded: `IMPORT_MAX_BYTES` (413) and `IMPORT_MAX_ROWS` (422) per request; `npm run erp -- import` sends a larger file in parts. A malformed file is a 400 naming the line.',
      `Needs the create permission (and update for updated rows): ${permissions.map((name) => `\`${name}\``).join(', ') || 'none'}.`,
    ].join('\n\n'),
    operationId: `${operationId(def, 'create', 'POST').replace(/Create$/, '')}Import`,
    'x-permissions': permissions,
    parameters: [
      ...pathParameters(def, { operation: 'create', method: 'POST', path: importPath(def, prefix) }),
      {
        name: 'dry_run',
        in: 'query',
        required: false,
        description: '`1`: check every row as the import would, and write nothing.',
        schema: { type: 'string', enum: ['0', '1', 'true', 'false'] },
      },
      {
        name: 'on_error',
        in: 'query',
        required: false,
        description: '`abort` (default): nothing is written when a row is rejected. `skip`: the valid rows are written.',
        schema: { type: 'string', enum: ['abort', 'skip'] },
      },
    ],
    requestBody: {
      required: true,
      content: {
        [CSV]: { schema: { type: 'string' }, example: csv },
        [JSON_LINES]: { schema: { type: 'string' }, example: `${JSON.stringify(example)}\n` },
        [XLSX]: { schema: { type: 'string', format: 'binary' } },
      },
    },
    responses: {
      200: { description: 'The report: rows read, created, updated, and those rejected (with `on_error=skip` or a dry run).', headers: rateLimitHeaders(), content: json(report) },
      400: {
        description: 'A malformed file (the line is named), or a bad `dry_run` or `on_error`.',
        content: { 'application/json': { schema: ref(SHARED.error), example: { message: 'The file is malformed: line 3 has a quoted cell that is never closed.' } } },
      },
      401: { $ref: '#/components/responses/Unauthenticated' },
      403: { $ref: '#/components/responses/Forbidden' },
      ...(def.parent && { 404: { description: 'No such parent.', content: { 'application/json': { schema: ref(SHARED.error), example: { message: ERROR_MESSAGES.notFound } } } } }),
      413: { $ref: '#/components/responses/PayloadTooLarge' },
      415: { $ref: '#/components/responses/UnsupportedMediaType' },
      422: {
        description: 'A row was rejected and nothing was written (the report, with a message), or the file has more rows than one import takes.',
        content: { 'application/json': { schema: { anyOf: [IMPORT_REPORT, ref(SHARED.validationError)] }, example: rejected } },
      },
      429: { $ref: '#/components/responses/TooManyRequests' },
      500: { $ref: '#/components/responses/ServerError' },
      503: { $ref: '#/components/responses/ServiceUnavailable' },
    },
  };
}

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The import's row in a resource's route table of the Markdown reference. */
export function importRow(def: ResourceDef, prefix: string): string {
  const permissions = [...new Set([...(def.access.permissions.create ?? []), ...(def.access.permissions.update ?? [])])].map((name) => `\`${name}\``).join(' + ');
  return `| POST | \`${importPath(def, prefix)}\` | Import (CSV, JSON lines, .xlsx; \`dry_run\`, \`on_error=skip\`) | 200 \`{message, rows, created, updated, rejected, dry_run}\` | ${permissions} |`;
}
