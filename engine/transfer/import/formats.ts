// The file formats an import takes, and where its route is.
import type { ResourceDef } from '../../definition/types.ts';

export const CSV = 'text/csv';
export const JSON_LINES = 'application/x-ndjson';
export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The import route of a resource, under the API prefix (contract form). */
export function importPath(def: ResourceDef, prefix: string): string {
  return `${prefix}${def.path}/import`;
}
