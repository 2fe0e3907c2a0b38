// The structure vocabulary of the definitions, as the definitions see it (the write path applies it:
// engine/rules/): `append` on a sort field. Their normal form, their boot
// checks (each problem names the file and line) and their words in the API references.
import type { FieldDef, ResourceDef } from './types.ts';

/** Boot check of `append`. */
function appendProblem(field: FieldDef): string | undefined {
  if (!field.append) return undefined;
  if (field.type !== 'integer' || !field.stored) return 'append applies to a stored integer field';
  if (field.required) return 'a field the engine fills when left out cannot be required';
  return undefined;
}

/** For the API references. */
function describeAppend(field: FieldDef): string[] {
  if (!field.append) return [];
  return [field.writable ? 'Last (the highest in its table + 1) when not sent.' : 'Set on create: last (the highest in its table + 1).'];
}

/** Boot checks of the structure vocabulary (called by link.ts). */
export function checkStructureRules(def: ResourceDef, problem: (at: string, message: string) => void): void {
  for (const field of def.fields.values()) {
    const appending = appendProblem(field);
    if (appending) problem(`fields.${field.name}.append`, appending);
  }
}

/** What the structure vocabulary says of a field, for the OpenAPI and Markdown references. */
export function describeStructureRules(_def: ResourceDef, field: FieldDef): string[] {
  return describeAppend(field);
}
