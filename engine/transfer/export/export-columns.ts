// The columns of an export: `fields=` (default: the fields the API writes for the resource), each
// an output field, or a belongsTo relation by its key (`category` beside `category_id`), which
// writes the referenced record's display name. Never a hidden or `revealed` field: what the list
// does not show, the export does not either.
import type { FieldDef, RelationDef, ResourceDef } from '../../definition/types.ts';
import type { Registry } from '../../definition/registry.ts';
import { BadRequestError } from '../../errors/http-errors.ts';

/** The fields that name a record to a person, in order of preference (the first the target has). */
export const DISPLAY_FIELDS = ['name', 'full_name', 'display_name', 'title', 'code', 'reference', 'email', 'label'] as const;

export type ExportColumn = { kind: 'field'; name: string; field: FieldDef } | { kind: 'display'; name: string; relation: RelationDef; target: ResourceDef; display: string };

/** The stored text field that names a record of `def`, if it has one. */
export function displayField(def: ResourceDef): string | undefined {
  return DISPLAY_FIELDS.find((name) => {
    const field = def.fields.get(name);
    return field?.stored && field.output && (field.type === 'string' || field.type === 'text');
  });
}

/** Every column `fields=` may name, in the default order first (the output fields), then the display names. */
export function exportableColumns(def: ResourceDef, registry: Registry): Map<string, ExportColumn> {
  const columns = new Map<string, ExportColumn>();
  for (const field of def.fields.values()) if (field.output) columns.set(field.name, { kind: 'field', name: field.name, field });
  for (const relation of def.relations.values()) {
    if (relation.kind !== 'belongsTo' || columns.has(relation.outputKey)) continue;
    const target = registry.get(relation.resource);
    const display = displayField(target);
    if (display) columns.set(relation.outputKey, { kind: 'display', name: relation.outputKey, relation, target, display });
  }
  return columns;
}

/** The columns `fields=a,b` names (in its order, each once), or every output field. 400 for a name it may not. */
export function exportColumns(def: ResourceDef, registry: Registry, requested: readonly string[]): ExportColumn[] {
  const allowed = exportableColumns(def, registry);
  if (requested.length === 0) return [...allowed.values()].filter((column) => column.kind === 'field');
  const unknown = requested.filter((name) => !allowed.has(name));
  if (unknown.length > 0) {
    throw new BadRequestError(`Requested field(s) \`${unknown.join(', ')}\` are not allowed. Allowed field(s) are \`${[...allowed.keys()].join(', ')}\`.`);
  }
  return [...new Set(requested)].map((name) => allowed.get(name)!);
}
