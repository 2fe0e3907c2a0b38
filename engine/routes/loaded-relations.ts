// What a response carries beside the record's own fields.
import type { ResourceDef } from '../definition/types.ts';

/** The client's includes plus the relations the definition always embeds. */
export function loadedRelations(def: ResourceDef, includes: readonly string[] = []): string[] {
  return def.embed.length === 0 ? [...includes] : [...new Set([...def.embed, ...includes])];
}
