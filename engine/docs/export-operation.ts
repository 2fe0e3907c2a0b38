// The export route of a resource in the API reference: its query (the list's filters and sort,
// `format`, `fields`) and its answers (the file in three media types, or the list's errors).
import type { Registry } from '../definition/registry.ts';
import type { ResourceDef } from '../definition/types.ts';
import { lowerLabel, operationId, plural, type NameTable } from '../definition/names.ts';
import { ERROR_MESSAGES } from '../errors/messages.ts';
import { ValidationError } from '../errors/http-errors.ts';
import { filterKinds } from '../list/filters/index.ts';
import { ref, SHARED, type JsonSchema } from '../serialize/response-schemas.ts';
import { pathParameters, queryParameters } from './parameters.ts';
import { rateLimitHeaders } from './shared-components.ts';
import { accessNote } from './descriptions.ts';
import { outputExample, recordExample } from './examples.ts';
import { csvLine } from '../transfer/csv-write.ts';
import { exportableColumns, exportColumns, type LinesColumn } from '../transfer/export/export-columns.ts';
import { CONTENT_TYPES, EXPORT_FORMATS } from '../transfer/export/export-formats.ts';
import { allParentsExportPath, exportPath } from '../transfer/export/export-query.ts';

/** `GET <list path>/export`, and a nested resource's `GET /<module>/<name>/export`, as OpenAPI path items, for a resource with a list. */
export function exportPathItems(def: ResourceDef, registry: Registry, names: NameTable, prefix: string): Array<[string, Record<string, JsonSchema>]> {
  if (!def.operations.has('list')) return [];
  const path = exportPath(def, prefix);
  const items: Array<[string, Record<string, JsonSchema>]> = [[path, { get: exportOperation(def, registry, names, path, false) }]];
  const everyParent = allParentsExportPath(def, prefix);
  if (everyParent) items.push([everyParent, { get: exportOperation(def, registry, names, everyParent, true) }]);
  return items;
}

function exportOperation(def: ResourceDef, registry: Registry, names: NameTable, path: string, everyParent: boolean): JsonSchema {
  const resourceNames = names.get(def.name)!;
  const columns = exportColumns(def, registry, []);
  const displays = [...exportableColumns(def, registry).values()].filter((column) => column.kind === 'display');
  const record = recordExample(def, registry) as Record<string, unknown>;
  const lines = columns.filter((column): column is LinesColumn => column.kind === 'lines');
  const values = columns.map((column) => (column.kind === 'lines' ? [linesExample(column)] : column.kind === 'ids' ? [1] : (record[column.name] ?? null)));
  const idLists = columns.filter((column) => column.kind === 'ids');
  const listNames = [...exportableColumns(def, registry).values()].filter((column) => column.kind === 'names');
  const error = (description: string, message: string) => ({ description, content: { 'application/json': { schema: ref(SHARED.error), example: { message } } } });
  const invalidFilter = filterError(def);
  const listParameters = queryParameters(def, 'list').filter((parameter) => parameter.name !== 'include' && !String(parameter.$ref ?? '').match(/\/(page|per_page)$/));
  return {
    tags: [resourceNames.tag],
    summary: everyParent
      ? `Export ${lowerLabel(resourceNames.plural)} of every ${lowerLabel(registry.get(def.parent!.resource).label)}`
      : `Export ${lowerLabel(resourceNames.plural)}`,
    description: [
      `Every ${lowerLabel(def.label)} the list would show (its filters, sort, company and record scope), not a page: a CSV file (RFC 4180, UTF-8 with a byte order mark, a header of field names), JSON Lines (one record per line), or an XLSX workbook. Streamed: the first rows arrive before the last are read.`,
      `Values are written as the API writes them (dates, decimals); a list as JSON. A text cell that a spreadsheet would run as a formula (beginning with \`=\`, \`+\`, \`-\`, \`@\`, a tab or a carriage return, unless it is a number) is written with a leading \`'\` in CSV and XLSX.`,
      lines.length > 0
        ? `${lines.map((column) => `\`${column.name}\``).join(', ')}: the ${lines.map((column) => lowerLabel(plural(column.child.label))).join(', ')} written with each record, as JSON (a list in JSON Lines, its text in CSV and XLSX), so that the file imports back: each line's \`id\`, the fields its create takes, each reference's display name beside its id (${lines[0]!.references.length > 0 ? `\`${lines[0]!.references[0]!.column}\` beside \`${lines[0]!.references[0]!.foreignKey}\`` : 'as a display column'}) and each list of ids as \`{id, name}\` entries.`
        : '',
      idLists.length > 0
        ? `${idLists.map((column) => `\`${column.name}\``).join(', ')}: the ids of the record's ${idLists.map((column) => column.name.replace(/_/g, ' ')).join(', ')}, as JSON (\`[3,7]\`; a list in JSON Lines)${listNames.length > 0 ? `; \`fields\` may add their names beside them (${listNames.map((column) => `\`${column.name}\``).join(', ')}: \`["VIP","Retail"]\`), which an import finds them by` : ''}.`
        : '',
      displays.length > 0
        ? `\`fields\` may also name ${displays.map((column) => `\`${column.name}\``).join(', ')}: the display name of the record \`${displays[0]!.relation.foreignKey}\` points at, beside its id.`
        : '',
      def.parent && !everyParent ? `The rows of the parent named in the path, each with its \`${def.parent.foreignKey}\`.` : '',
      everyParent
        ? `The rows of every ${lowerLabel(registry.get(def.parent!.resource).label)} the user may see (live, in their companies), each with its \`${def.parent!.foreignKey}\`; \`${exportPath(def, '')}\` exports one parent's.`
        : '',
      accessNote(def, 'list'),
    ]
      .filter(Boolean)
      .join('\n\n'),
    operationId: operationId(def, 'list', 'GET').replace(/List$/, everyParent ? 'ExportAll' : 'Export'),
    'x-permissions': def.access.permissions.list ?? [],
    parameters: [
      ...pathParameters(def, { operation: 'list', method: 'GET', path }),
      {
        name: 'format',
        in: 'query',
        description: 'The file: `csv` (the default), `jsonl` or `xlsx`.',
        schema: { type: 'string', enum: [...EXPORT_FORMATS], default: 'csv' },
      },
      {
        name: 'fields',
        in: 'query',
        description: `The columns, in order, comma-separated (default: every field the API writes: ${columns.map((column) => `\`${column.name}\``).join(', ')}).`,
        style: 'form',
        explode: false,
        schema: { type: 'array', items: { type: 'string', enum: [...exportableColumns(def, registry).keys()] }, uniqueItems: true },
      },
      ...listParameters,
    ],
    responses: {
      200: {
        description: `The ${lowerLabel(resourceNames.plural)}, as a file (\`Content-Disposition: attachment\`).`,
        headers: rateLimitHeaders(),
        content: {
          [CONTENT_TYPES.csv.split(';')[0]!]: { schema: { type: 'string' }, example: csvLine(columns.map((column) => column.name)) + csvLine(values) },
          [CONTENT_TYPES.jsonl.split(';')[0]!]: {
            schema: { type: 'string' },
            example: `${JSON.stringify(Object.fromEntries(columns.map((column, i) => [column.name, values[i]])))}\n`,
          },
          [CONTENT_TYPES.xlsx]: {
            schema: { type: 'string', format: 'binary' },
            example: 'An XLSX workbook of one sheet: a header row of the field names, then a row per record (numbers as numbers, other values as text).',
          },
        },
      },
      400: error(
        'An unknown `format`, field, filter or sort (the message lists the allowed ones).',
        'Requested format `pdf` is not allowed. Allowed format(s) are `csv, jsonl, xlsx`.',
      ),
      401: { $ref: '#/components/responses/Unauthenticated' },
      403: { $ref: '#/components/responses/Forbidden' },
      ...(def.parent && !everyParent && { 404: error(`No such parent ${registry.get(def.parent.resource).label}.`, ERROR_MESSAGES.notFound) }),
      ...(invalidFilter !== undefined && {
        422: { description: 'A filter value is not valid.', content: { 'application/json': { schema: ref(SHARED.validationError), example: invalidFilter } } },
      }),
      429: { $ref: '#/components/responses/TooManyRequests' },
      500: { $ref: '#/components/responses/ServerError' },
      503: { $ref: '#/components/responses/ServiceUnavailable' },
    },
  };
}

/** One line of a lines column as an export writes it: its id, its fields, the names beside its references, its lists. */
function linesExample(column: LinesColumn): Record<string, unknown> {
  const line: Record<string, unknown> = { id: 1 };
  for (const field of column.fields) {
    line[field.name] = outputExample(field, column.child);
    const reference = column.references.find((candidate) => candidate.foreignKey === field.name);
    if (reference) line[reference.column] = outputExample(reference.target.fields.get(reference.display)!, reference.target);
  }
  for (const list of column.lists) line[list.field.name] = list.display ? [{ id: 1, [list.display]: outputExample(list.target.fields.get(list.display)!, list.target) }] : [1];
  return line;
}

/** The 422 of the first filter that refuses a value, as an example (none when every filter takes any text). */
function filterError(def: ResourceDef): Record<string, unknown> | undefined {
  for (const filter of def.filters.values()) {
    const parsed = filterKinds[filter.kind].parse('not-a-value', filter);
    if ('error' in parsed) return new ValidationError({ [`filter[${filter.name}]`]: [parsed.error] }).body();
  }
  return undefined;
}

/** The export's rows in a resource's table of the Markdown reference. */
export function exportRows(def: ResourceDef, prefix: string): string[] {
  const permissions = (def.access.permissions.list ?? []).map((name) => `\`${name}\``).join(' + ');
  const rows = [`| GET | \`${exportPath(def, prefix)}\` | Export | 200 every matching record as \`format=csv|jsonl|xlsx\` | ${permissions} |`];
  const everyParent = allParentsExportPath(def, prefix);
  if (everyParent)
    rows.push(`| GET | \`${everyParent}\` | Export (every parent) | 200 the records of every parent, each with its \`${def.parent!.foreignKey}\` | ${permissions} |`);
  return rows;
}

/** Every export path of the resources (for the references' lists of generated routes). */
export function exportPaths(def: ResourceDef, prefix: string): string[] {
  const everyParent = allParentsExportPath(def, prefix);
  return def.operations.has('list') ? [exportPath(def, prefix), ...(everyParent ? [everyParent] : [])] : [];
}
