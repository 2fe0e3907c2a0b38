// The lists of records a create takes with its record (a document's lines, `lines` or
// `invoice_lines`): an export writes each as one column of JSON, an import reads it back.
import type { Registry } from '../definition/registry.ts';
import type { FieldDef, RelationDef, ResourceDef } from '../definition/types.ts';

export interface RecordsField {
  field: FieldDef;
  /** The hasMany relation the entries are written through (its foreign key points back at the owner). */
  relation: RelationDef;
  /** The resource of each entry (an order line). */
  child: ResourceDef;
}

/** The writable `records` fields of a resource, with the resource of their entries. */
export function recordsFields(def: ResourceDef, registry: Registry): RecordsField[] {
  const found: RecordsField[] = [];
  for (const field of def.fields.values()) {
    if (field.type !== 'records' || !field.writable || !field.relation) continue;
    const relation = def.relations.get(field.relation);
    if (relation?.kind === 'hasMany') found.push({ field, relation, child: registry.get(relation.resource) });
  }
  return found;
}
