// A record's own lists of ids (a partner's tags, a user's roles, a product's routes): the writable
// `ids` fields kept in a pivot table (their relation is manyToMany `through`). An export writes
// each as a column of the ids (`[3,7]`) and, when `fields=` asks for it, a column of the records'
// display names beside it (`tags_names`: `["VIP","Retail"]`); an import takes either, the names
// first (ids differ between databases). A field sent by another column of its records (`by:`, a
// role's permission names) is not one: what it holds already names them.
import type { Registry } from '../definition/registry.ts';
import type { FieldDef, RelationDef, ResourceDef } from '../definition/types.ts';
import { perDefinition } from '../definition/per-definition.ts';

export interface IdList {
  field: FieldDef;
  /** The manyToMany relation, with its pivot (`through`). */
  relation: RelationDef & { through: NonNullable<RelationDef['through']> };
  /** The resource of the records listed (partners/tags). */
  target: ResourceDef;
  /** The column of the records' names (`tags_names`). */
  namesColumn: string;
}

/** The resource's lists of ids an export writes and an import reads back (computed once per definition). */
export const idLists = perDefinition((def, registry: Registry): IdList[] => {
  const lists: IdList[] = [];
  for (const field of def.fields.values()) {
    if (field.type !== 'ids' || !field.writable || field.by || !field.relation) continue;
    const relation = def.relations.get(field.relation);
    if (relation?.kind !== 'manyToMany' || !relation.through) continue;
    lists.push({ field, relation: relation as IdList['relation'], target: registry.get(relation.resource), namesColumn: `${field.name}_names` });
  }
  return lists;
});
