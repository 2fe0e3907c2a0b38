// The columns of an export: `fields=` (default: the fields the API writes for the resource, and
// its lists of ids and of lines), each an output field, a list of ids, a list of lines, or a
// belongsTo relation by its key (`category` beside `category_id`), which writes the referenced
// record's display name (and a list of ids's `<field>_names`, its records' names). Never a
// hidden or `revealed` field: what the list does not show, the export does not either. A list of
// records the create takes (a document's lines) is a column of its own: the lines as JSON, each
// with the fields its create takes and, beside each reference's id, the display name an import
// resolves in another installation.
import type { FieldDef, RelationDef, ResourceDef } from '../../definition/types.ts';
import type { Registry } from '../../definition/registry.ts';
import { BadRequestError } from '../../errors/http-errors.ts';
import { displayField } from '../../definition/display-field.ts';
import { idLists, type IdList } from '../id-lists.ts';
import { recordsFields, type RecordsField } from '../records-fields.ts';
import { namedReferences, type Reference } from '../references.ts';

/** A reference of a line: its id (`product_id`) and, beside it, its target's display name (`product`). */
export interface LineReference extends Reference {
  display: string;
}

/** A list of ids of a line (its taxes): each entry written as the id and display name of the record (`{"id": 1, "name": "15%"}`). */
export interface LineList {
  field: FieldDef;
  relation: RelationDef;
  target: ResourceDef;
  display?: string;
}

/** A records field as a column: each line's fields (those its create takes that the API writes), its named references, its lists of ids. */
export interface LinesColumn extends RecordsField {
  kind: 'lines';
  name: string;
  fields: FieldDef[];
  references: LineReference[];
  lists: LineList[];
}

export type ExportColumn =
  | { kind: 'field'; name: string; field: FieldDef }
  /** A record's own list of ids (its tags): the ids, as a list. */
  | { kind: 'ids'; name: string; list: IdList }
  /** Beside it, only when asked (`tags_names`): the records' display names, in the order of the ids. */
  | { kind: 'names'; name: string; list: IdList; display: string }
  | { kind: 'display'; name: string; relation: RelationDef; target: ResourceDef; display: string }
  | LinesColumn;

/** Every column `fields=` may name, in the default order first (the output fields, the lists of ids, the lists of lines), then the names. */
export function exportableColumns(def: ResourceDef, registry: Registry): Map<string, ExportColumn> {
  const columns = new Map<string, ExportColumn>();
  for (const field of def.fields.values()) if (field.output) columns.set(field.name, { kind: 'field', name: field.name, field });
  const lists = idLists(def, registry);
  for (const list of lists) columns.set(list.field.name, { kind: 'ids', name: list.field.name, list });
  for (const records of recordsFields(def, registry)) columns.set(records.field.name, linesColumn(records, registry));
  for (const relation of def.relations.values()) {
    if (relation.kind !== 'belongsTo' || columns.has(relation.outputKey)) continue;
    const target = registry.get(relation.resource);
    const display = displayField(target);
    if (display) columns.set(relation.outputKey, { kind: 'display', name: relation.outputKey, relation, target, display });
  }
  for (const list of lists) {
    const display = displayField(list.target);
    if (display && !columns.has(list.namesColumn) && !def.relations.has(list.namesColumn)) columns.set(list.namesColumn, { kind: 'names', name: list.namesColumn, list, display });
  }
  return columns;
}

/** Columns only `fields=` brings: a reference's display name, a list of ids' names. */
function askedOnly(column: ExportColumn): boolean {
  return column.kind === 'display' || column.kind === 'names';
}

function linesColumn(records: RecordsField, registry: Registry): LinesColumn {
  const { child, relation: owner } = records;
  const fields = [...child.fields.values()].filter((field) => field.writable && field.output && field.name !== owner.foreignKey);
  const written = new Set(fields.map((field) => field.name));
  const references: LineReference[] = [];
  for (const reference of namedReferences(child, registry)) {
    const display = displayField(reference.target);
    if (display && written.has(reference.foreignKey)) references.push({ ...reference, display });
  }
  const lists: LineList[] = idLists(child, registry).map(({ field, relation, target }) => ({ field, relation, target, display: displayField(target) }));
  return { ...records, kind: 'lines', name: records.field.name, fields, references, lists };
}

/** The columns `fields=a,b` names (in its order, each once), or every output field. 400 for a name it may not. */
export function exportColumns(def: ResourceDef, registry: Registry, requested: readonly string[]): ExportColumn[] {
  const allowed = exportableColumns(def, registry);
  if (requested.length === 0) return [...allowed.values()].filter((column) => !askedOnly(column));
  const unknown = requested.filter((name) => !allowed.has(name));
  if (unknown.length > 0) {
    throw new BadRequestError(`Requested field(s) \`${unknown.join(', ')}\` are not allowed. Allowed field(s) are \`${[...allowed.keys()].join(', ')}\`.`);
  }
  return [...new Set(requested)].map((name) => allowed.get(name)!);
}
