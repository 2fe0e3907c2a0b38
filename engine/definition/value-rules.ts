// What the value vocabulary of a field says, read from its definition (no I/O): the paths its
// rules read (`project.company_id`). Shared by the boot checks (value-rules-check.ts) and the
// write path (engine/values).
import type { FieldDef, ResourceDef } from './types.ts';

/** `project.company_id` → the field holding the reference (project_id) and the column read; `uom_id` → the field itself. */
export function splitPath(def: ResourceDef, path: string): { via?: string; column: string } {
  const dot = path.indexOf('.');
  if (dot < 0) return { column: path };
  // An unknown relation is link.ts's to report; its name stands for the key meanwhile.
  return { via: def.relations.get(path.slice(0, dot))?.foreignKey ?? path.slice(0, dot), column: path.slice(dot + 1) };
}

/** The field a path starts from: the field itself, or the key of the relation it goes through. */
export function ownField(def: ResourceDef, path: string): string {
  const { via, column } = splitPath(def, path);
  return via ?? column;
}

/** The resource a reference field points at: its `references`, or the resource of its relation (ids, or the belongsTo whose key it is). */
export function referencedResource(def: ResourceDef, field: FieldDef): string | undefined {
  if (field.references) return field.references;
  const relation = field.relation ? def.relations.get(field.relation) : [...def.relations.values()].find((r) => r.kind === 'belongsTo' && r.foreignKey === field.name);
  return relation?.resource;
}

/** The record's own fields a field's copy reads: they are filled first. */
export function fillReads(def: ResourceDef, field: FieldDef): string[] {
  return field.related ? [ownField(def, field.related)] : [];
}

/** A path as the documentation says it: `the project's \`company_id\`` or `\`uom_id\``. */
function pathWords(def: ResourceDef, path: string): string {
  const [first, column] = path.split('.') as [string, string | undefined];
  if (column === undefined) return `\`${first}\``;
  return `the ${def.relations.get(first)?.outputKey ?? first}'s \`${column}\``;
}

/** The field's value rules in words, for the API reference (OpenAPI descriptions and docs/api.md). */
export function describeValueRules(def: ResourceDef, field: FieldDef): string[] {
  const words: string[] = [];
  if (field.related) words.push(`A copy of ${pathWords(def, field.related)}, kept in sync when it changes.`);
  return words;
}
