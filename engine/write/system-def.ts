// How a system write (a behaviour writing a document's state, its link to the order it comes
// from) sees a definition: its readOnly columns writable, not required, and checked against the
// record their belongsTo relation names. The engine's own columns (id, timestamps, creator) stay
// the engine's. Each view is made once per definition.
import { MANAGED_FIELDS } from '../definition/normalize.ts';
import { Registry } from '../definition/registry.ts';
import type { FieldDef, ResourceDef } from '../definition/types.ts';
import { splitPath } from '../definition/value-rules.ts';
import type { NestedEntry, Values } from '../validation/body-validator.ts';
import { perDefinition } from '../definition/per-definition.ts';

export const systemDef = perDefinition((def): ResourceDef => {
  const fields = new Map<string, FieldDef>();
  for (const [name, field] of def.fields) {
    if (field.writable || !field.stored || MANAGED_FIELDS.has(name)) {
      fields.set(name, field);
      continue;
    }
    const relation = [...def.relations.values()].find((candidate) => candidate.kind === 'belongsTo' && candidate.foreignKey === name);
    fields.set(name, { ...field, writable: true, required: false, nullable: true, references: field.references ?? relation?.resource });
  }
  return { ...def, fields };
});

const systemRegistries = new WeakMap<Registry, Registry>();

/** The registry whose nested resources are seen as a system write sees them (a document's lines). */
export function systemRegistry(registry: Registry): Registry {
  let found = systemRegistries.get(registry);
  if (!found) systemRegistries.set(registry, (found = new Registry(new Map([...registry.resources].map(([name, def]) => [name, systemDef(def)])))));
  return found;
}

const withKeptCopies = new WeakMap<ResourceDef, Map<string, ResourceDef>>();

/**
 * The definition a system create is written by: a copy (`related`) its body gives is kept when the
 * body names no record to copy it from (a move of no operation: an inventory adjustment's
 * reference and company), where the copy rule would write null over it.
 */
export function keptCopies(def: ResourceDef, body: Values): ResourceDef {
  const kept = [...def.fields.values()].filter((field) => field.related && body[field.name] !== undefined && body[splitPath(def, field.related).via!] == null);
  if (kept.length === 0) return def;
  const key = kept.map((field) => field.name).join(',');
  let byKey = withKeptCopies.get(def);
  if (!byKey) withKeptCopies.set(def, (byKey = new Map()));
  let found = byKey.get(key);
  if (!found) {
    const fields = new Map([...def.fields].map(([name, field]) => [name, kept.includes(field) ? { ...field, related: undefined } : field]));
    byKey.set(key, (found = { ...def, fields }));
  }
  return found;
}

/**
 * Puts back the undeclared columns of a system body (and of its nested entries) that validation
 * left out: columns a definition does not show (an invoice's marketing campaign, kept for the
 * original's screens), written as given, the database refusing one that is no column.
 */
export function restoreColumns(registry: Registry, def: ResourceDef, body: Values, values: Values, at = ''): void {
  for (const [key, value] of Object.entries(body)) {
    if (at && key === 'id') continue; // a nested entry's: the child it updates
    const field = def.fields.get(key);
    if (!field) {
      values[key] = value;
      continue;
    }
    if (!field.writable) throw new Error(`${def.name}: ${at}${key} is the engine's to write.`);
    if (field.type !== 'records' || !Array.isArray(value)) continue;
    const child = registry.get(def.relations.get(field.relation!)!.resource);
    const entries = values[key] as NestedEntry[];
    value.forEach((entry, index) => {
      restoreColumns(registry, child, entry as Values, entries[index]!.values, `${at}${key}.${index}.`);
    });
  }
}
