// What the value vocabulary of a field says, read from its definition (no I/O): the paths its
// rules read (`uom_id`, `project.company_id`), its default's sources, and whether its reference
// domain is judged in the write. Shared by the boot checks (value-rules-check.ts), the body
// validator and the write path (engine/keys/values).
import type { ConditionValue, DefaultSourceFormat, OwnValue, ScopeValue } from './format.ts';
import type { FieldDef, ResourceDef } from './types.ts';

export function isOwnValue(condition: ConditionValue): condition is OwnValue {
  return typeof condition === 'object' && 'field' in condition;
}

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

/** The `{project.name}` placeholders of a message (`{field}` is the field's own label). */
export function placeholdersOf(message: string): string[] {
  return [...message.matchAll(/\{([a-zA-Z0-9_.]+)\}/g)].map((match) => match[1]!).filter((path) => path !== 'field');
}

export function defaultSources(field: FieldDef): DefaultSourceFormat[] {
  if (field.defaultFrom === undefined) return [];
  return Array.isArray(field.defaultFrom) ? field.defaultFrom : [field.defaultFrom];
}

/** The record's own fields a field's copy or default reads: they are filled first. */
export function fillReads(def: ResourceDef, field: FieldDef): string[] {
  const reads: string[] = [];
  if (field.related) reads.push(ownField(def, field.related));
  for (const source of defaultSources(field)) {
    if (typeof source === 'string') reads.push(ownField(def, source));
    else if ('first' in source) {
      for (const condition of Object.values(source.where ?? {})) if (isOwnValue(condition)) reads.push(ownField(def, condition.field));
    }
    // Today is the record's company's date: its company is filled first.
    else if ('now' in source && field.type === 'date' && def.fields.get('company_id')?.stored) reads.push('company_id');
  }
  return reads;
}

/**
 * A reference whose domain reads the record's own values, has its own message, or is a list of
 * ids: judged in the write, on the values the record will have (engine/keys/values/domains.ts). The
 * others' fixed conditions are checked with their existence, by the body validator.
 */
export function checkedInWrite(field: FieldDef): boolean {
  if (!field.referencesWhere) return false;
  return field.referencesMessage !== undefined || field.type === 'ids' || Object.values(field.referencesWhere).some(isOwnValue);
}

/** The conditions the body validator checks with the reference's existence: those not judged in the write. */
export function conditionsInBody(field: FieldDef): Record<string, ScopeValue> | undefined {
  if (checkedInWrite(field)) return undefined;
  return field.referencesWhere as Record<string, ScopeValue> | undefined;
}
