// The references of a record a file may give by name: a belongsTo relation whose foreign key the
// create takes (`category_id`, named in the column `category`), or a field that `references` a
// resource without a relation (a move's `product_packaging_id`, named in `product_packaging`).
import type { Registry } from '../definition/registry.ts';
import type { ResourceDef } from '../definition/types.ts';

export interface Reference {
  /** The field holding the id (`category_id`). */
  foreignKey: string;
  /** The column (or a line's key) holding the name (`category`). */
  column: string;
  target: ResourceDef;
}

export function namedReferences(def: ResourceDef, registry: Registry): Reference[] {
  const found: Reference[] = [];
  const keys = new Set<string>();
  for (const relation of def.relations.values()) {
    if (relation.kind !== 'belongsTo') continue;
    keys.add(relation.foreignKey);
    if (!def.fields.get(relation.foreignKey)?.writable) continue;
    if (def.fields.has(relation.outputKey)) continue; // the column is a field of its own
    found.push({ foreignKey: relation.foreignKey, column: relation.outputKey, target: registry.get(relation.resource) });
  }
  const taken = new Set([...def.fields.keys(), ...[...def.relations.values()].map((relation) => relation.outputKey)]);
  for (const field of def.fields.values()) {
    const column = field.name.replace(/_id$/, '');
    if (!field.references || !field.writable || keys.has(field.name) || column === field.name || taken.has(column)) continue;
    found.push({ foreignKey: field.name, column, target: registry.get(field.references) });
  }
  return found;
}
