// The field that names a record of a resource to people: in exports beside a reference's id, in
// imports to find a record by name, in grouped totals as a group's label.
import type { ResourceDef } from './types.ts';

/** The first of these a resource stores and shows, as text, is its display name. */
export const DISPLAY_FIELDS = ['name', 'full_name', 'display_name', 'title', 'code', 'reference', 'email', 'label'] as const;

/** The stored text field that names a record of `def`, if it has one. */
export function displayField(def: ResourceDef): string | undefined {
  return DISPLAY_FIELDS.find((name) => {
    const field = def.fields.get(name);
    return field?.stored && field.output && (field.type === 'string' || field.type === 'text');
  });
}
