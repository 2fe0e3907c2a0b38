// Example values for the documentation: a field's `example` from its definition when it has one,
// else a value synthesized from its type and rules. Output examples go through the same formatters
// as real responses (decimal strings, midnight-UTC dates), so an example always fits its schema.
import type { Registry } from '../definition/registry.ts';
import type { FieldDef, ResourceDef } from '../definition/types.ts';
import { writableFields } from '../schema/body-schemas.ts';
import { formatDate, formatDecimal, formatTimestamp } from '../serialize/value-formats.ts';

export const EXAMPLE_TIMESTAMP = '2025-01-31T09:30:00.000000Z';
const EXAMPLE_DATE = '2025-01-31';

/** A value the API accepts for the field in a request body. */
export function inputExample(field: FieldDef, def: ResourceDef, registry: Registry, depth = 0): unknown {
  if (field.type === 'ids') return field.by ? [typeof field.example === 'string' ? field.example : 'name'] : [1];
  if (field.type === 'records') {
    const relation = field.relation ? def.relations.get(field.relation) : undefined;
    if (!relation || depth > 1) return [];
    const child = registry.get(relation.resource);
    return Array.from({ length: Math.max(1, field.minItems ?? 1) }, () => createExample(child, registry, depth + 1));
  }
  if (field.type === 'strings') return [typeof field.example === 'string' ? field.example : 'image-1.png'];
  const value = field.example ?? field.default;
  if (value !== undefined) return typedInput(field, value);
  if (field.enum) return field.enum[0];
  // Requests send date-times in ISO form; everything else looks as the API returns it.
  return field.type === 'datetime' ? '2025-01-31T09:30:00Z' : baseOutput(field);
}

/** The value the API returns for the field (as record.ts formats it). */
/** What a field shown once looks like in the examples (a Standard Webhooks secret). */
const REVEALED_EXAMPLE = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

export function outputExample(field: FieldDef, def: ResourceDef): unknown {
  if (field.name === 'id' || field.name === 'creator_id' || (def.parent && field.name === def.parent.foreignKey)) return 1;
  if (field.name === 'deleted_at') return null;
  if (field.name === 'created_at' || field.name === 'updated_at') return EXAMPLE_TIMESTAMP;
  if (field.type === 'strings') return [typeof field.example === 'string' ? field.example : 'image-1.png'];
  const explicit = field.example ?? field.default;
  // An optional field nobody gave an example for shows the null it usually holds.
  if (explicit === undefined && field.nullable && !field.references && !field.computed && field.type !== 'boolean' && !field.enum) return null;
  const value = explicit !== undefined ? typedInput(field, explicit) : field.enum ? field.enum[0] : baseOutput(field);
  switch (field.type) {
    case 'decimal':
      return formatDecimal(value, field.scale ?? 2);
    case 'date':
      return formatDate(value);
    case 'datetime':
      return formatTimestamp(value);
    default:
      return value;
  }
}

function baseOutput(field: FieldDef): unknown {
  switch (field.type) {
    case 'integer':
      return Math.max(1, Math.ceil(field.minimum ?? 1));
    case 'number':
      return clamp(field, 1.5);
    case 'decimal':
      return clamp(field, 1.25);
    case 'boolean':
      return true;
    case 'date':
      return EXAMPLE_DATE;
    case 'datetime':
      return EXAMPLE_TIMESTAMP;
    default:
      return stringExample(field);
  }
}

/** A record as the API returns it, with the relations the definition always embeds. */
export function recordExample(def: ResourceDef, registry: Registry, withEmbeds = true, { revealed = false } = {}): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const field of def.fields.values()) if (field.output || (revealed && field.revealed)) record[field.name] = field.revealed ? REVEALED_EXAMPLE : outputExample(field, def);
  if (withEmbeds) {
    for (const name of def.embed) {
      const relation = def.relations.get(name.split('.')[0]!);
      if (!relation) continue;
      const related = recordExample(registry.get(relation.resource), registry, false);
      record[relation.outputKey] = relation.kind === 'belongsTo' ? related : [related];
    }
  }
  return record;
}

/** A create body: the required fields and every field whose definition gives an example. */
export function createExample(def: ResourceDef, registry: Registry, depth = 0): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of writableFields(def)) {
    if (field.required || field.example !== undefined || (field.type === 'records' && field.minItems)) {
      body[field.name] = inputExample(field, def, registry, depth);
    }
  }
  return body;
}

/** An update body: a few fields; PUT and PATCH change only what is sent. */
export function updateExample(def: ResourceDef, registry: Registry): Record<string, unknown> {
  const fields = writableFields(def);
  const chosen = fields.filter((field) => field.example !== undefined && field.type !== 'records').slice(0, 2);
  if (chosen.length === 0 && fields.length > 0) chosen.push(fields.find((field) => field.required) ?? fields[0]!);
  return Object.fromEntries(chosen.map((field) => [field.name, inputExample(field, def, registry)]));
}

/** A YAML example is a string, a number or a boolean: read it as the field's type. */
function typedInput(field: FieldDef, value: string | number | boolean): unknown {
  switch (field.type) {
    case 'integer':
      return Number.isInteger(Number(value)) ? Number(value) : 1;
    case 'number':
    case 'decimal':
      return Number.isFinite(Number(value)) ? Number(value) : 1;
    case 'boolean':
      return value === true || value === 1 || value === 'true' || value === '1';
    default:
      return String(value);
  }
}

function clamp(field: FieldDef, value: number): number {
  if (field.minimum !== undefined && value < field.minimum) value = field.minimum;
  if (field.maximum !== undefined && value > field.maximum) value = field.maximum;
  return value;
}

function stringExample(field: FieldDef): string {
  switch (field.format) {
    case 'email':
      return 'someone@example.com';
    case 'url':
      return 'https://example.com';
    case 'hex-color':
      return '#1e88e5';
    case 'time-zone':
      return 'Europe/Zurich';
  }
  const text = `Example ${field.label}`;
  return field.maxLength !== undefined ? text.slice(0, field.maxLength) : text;
}
