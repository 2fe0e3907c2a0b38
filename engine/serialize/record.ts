// Turns a stored row (with any loaded relations) into the response record of its resource.
// One serializer per resource, built at boot from its output fields.
import type { Registry } from '../definition/registry.ts';
import type { FieldDef, ResourceDef } from '../definition/types.ts';
import type { Behaviours } from '../behaviours/types.ts';
import { formatDate, formatDecimal, formatTimestamp } from './value-formats.ts';

export type Row = Record<string, unknown>;
export type Serialize = (row: Row) => Record<string, unknown>;
export type Serializers = ReadonlyMap<string, Serialize>;

export function buildSerializers(registry: Registry, behaviours: Behaviours): Serializers {
  const serializers = new Map<string, Serialize>();
  for (const def of registry.all()) serializers.set(def.name, buildSerializer(def, behaviours, serializers));
  return serializers;
}

function buildSerializer(def: ResourceDef, behaviours: Behaviours, all: Map<string, Serialize>): Serialize {
  const fields = [...def.fields.values()].filter((field) => field.output);
  const record = recordBuilder(
    fields.map((field) => field.name),
    fields.map((field) => fieldReader(field, behaviours)),
  );
  const relations = [...def.relations.values()];

  return (row) => {
    const output = record(row);
    for (const relation of relations) {
      const loaded = row[relation.name];
      if (loaded === undefined) continue; // relations appear only when included
      const serialize = all.get(relation.resource)!;
      output[relation.outputKey] = Array.isArray(loaded) ? loaded.map((item) => serialize(item as Row)) : loaded === null ? null : serialize(loaded as Row);
    }
    return output;
  };
}

/**
 * A function that builds the record as one object literal of the output fields: the object is
 * allocated once at its final size with one shape, where assigning field after field to `{}`
 * grew its property store several times per record (a list of 15 records with a relation: 30
 * records). Generated at boot; the names are written as JSON strings, the readers are arguments.
 */
function recordBuilder(names: string[], readers: Array<(row: Row) => unknown>): (row: Row) => Record<string, unknown> {
  const params = readers.map((_, i) => `read${i}`);
  const literal = names.map((name, i) => `${JSON.stringify(name)}: read${i}(row)`).join(', ');
  return new Function(...params, `return (row) => ({ ${literal} });`)(...readers);
}

function fieldReader(field: FieldDef, behaviours: Behaviours): (row: Row) => unknown {
  if (field.computed) {
    const compute = behaviours.computed[field.computed]!;
    return (row) => compute(row) ?? null;
  }
  const name = field.name;
  switch (field.type) {
    case 'datetime':
      return (row) => formatTimestamp(row[name]);
    case 'date':
      return (row) => formatDate(row[name]);
    case 'decimal': {
      const scale = field.scale ?? 2;
      return (row) => formatDecimal(row[name], scale);
    }
    case 'boolean':
      return (row) => (row[name] === null || row[name] === undefined ? null : Boolean(Number(row[name])));
    case 'integer':
      return (row) => (row[name] === null || row[name] === undefined ? null : Number(row[name]));
    case 'number':
      return (row) => (row[name] === null || row[name] === undefined ? null : Number(row[name]));
    case 'strings':
      return (row) => parseStrings(row[name]);
    default:
      return (row) => row[name] ?? null;
  }
}

/** A list of strings is stored as JSON text; a missing one reads as an empty list. */
export function parseStrings(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string' || value === '') return [];
  try {
    const parsed = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

/**
 * The record of an answer that shows its `revealed` fields (the create, an action with `reveals`):
 * the record, then those fields from the stored row. Its ETag is the record's without them.
 */
export function withRevealed(def: ResourceDef, data: Record<string, unknown>, row: Row): Record<string, unknown> {
  const revealed = [...def.fields.values()].filter((field) => field.revealed);
  if (revealed.length === 0) return data;
  return { ...data, ...Object.fromEntries(revealed.map((field) => [field.name, row[field.name] ?? null])) };
}
