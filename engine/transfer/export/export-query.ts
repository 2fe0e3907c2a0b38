// The export's own query: `format` and `fields`, and the list's query without what makes a page.
import type { ResourceDef } from '../../definition/types.ts';
import { BadRequestError } from '../../errors/http-errors.ts';
import type { RawQuery } from '../../list/parse-list-query.ts';
import { EXPORT_FORMATS, type ExportFormat } from './export-formats.ts';

/** The export's path: the list's, then `/export`. */
export function exportPath(def: ResourceDef, prefix: string): string {
  return `${prefix}${def.path}/export`;
}

/**
 * A nested resource's export across every parent (every order's lines): at the resource's name,
 * which no path holds (`/sales/order-lines/export` beside `/sales/orders/{order_id}/lines`).
 * None for a top-level resource, whose export is already its every row.
 */
export function allParentsExportPath(def: ResourceDef, prefix: string): string | undefined {
  return def.parent && def.operations.has('list') ? `${prefix}/${def.name}/export` : undefined;
}

export interface ExportRequest {
  format: ExportFormat;
  fields: string[];
}

/** `format` (csv when absent) and `fields`; 400 for a format the export does not write. */
export function parseExportQuery(query: RawQuery): ExportRequest {
  const format = (last(query.format) ?? 'csv').trim() || 'csv';
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new BadRequestError(`Requested format \`${format}\` is not allowed. Allowed format(s) are \`${EXPORT_FORMATS.join(', ')}\`.`);
  }
  const fields = [query.fields]
    .flat()
    .flatMap((value) => (value ?? '').split(','))
    .map((name) => name.trim())
    .filter(Boolean);
  return { format: format as ExportFormat, fields };
}

/** The list's query without what a page is (`page`, `per_page`, `include`): every matching row is exported. */
export function listPart(query: RawQuery): RawQuery {
  const { page: _page, per_page: _perPage, include: _include, format: _format, fields: _fields, ...rest } = query;
  return rest;
}

function last(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[value.length - 1] : value;
}
