// Request values and expected response values, derived from field definitions.
import type { Registry } from '../../engine/definition/registry.ts';
import type { FieldDef, ResourceDef } from '../../engine/definition/types.ts';
import { formatDecimal, formatTimestamp } from '../../engine/serialize/value-formats.ts';

export interface PayloadContext {
  /** An existing id for each referenced resource (also those of ids fields and nested records). */
  referenceIds: Map<string, number>;
  /** The `by` column value of those records, for ids fields that name records by it: `security/permissions.name`. */
  referenceKeys?: Map<string, unknown>;
  registry: Registry;
  /** A tag unique to this run, so values of different runs never collide. */
  tag: string;
}

export function writableFields(def: ResourceDef): FieldDef[] {
  return [...def.fields.values()].filter((field) => field.writable);
}

/** A valid value for a field; `n` varies it between records. */
export function sampleValue(field: FieldDef, context: PayloadContext, n: number, owner?: ResourceDef): unknown {
  if (field.references) return context.referenceIds.get(field.references);
  // A list of strings: its example when it has one (a webhook's resources), else file names.
  if (field.type === 'strings') return typeof field.example === 'string' ? [field.example] : [`file-${n}.png`, `file-${n}-b.png`];
  if (field.type === 'ids' || field.type === 'records') {
    const target = context.registry.get(owner!.relations.get(field.relation!)!.resource);
    if (field.type === 'ids') return [field.by ? context.referenceKeys?.get(`${target.name}.${field.by}`) : context.referenceIds.get(target.name)];
    return Array.from({ length: Math.max(1, field.minItems ?? 0) }, (_, i) => validPayload(target, context, n + i));
  }
  if (field.enum) return field.enum[n % field.enum.length];
  switch (field.type) {
    case 'string':
    case 'text':
      if (field.format === 'email') return `user${n}.${context.tag}@example.com`;
      if (field.format === 'hex-color') return ['#a1b2c3', '#00ff00', '#123'][n % 3];
      if (field.format === 'url') return `https://example.com/${context.tag}/${n}`;
      if (field.format === 'time-zone') return ['Europe/Zurich', 'Pacific/Kiritimati', 'America/New_York'][n % 3];
      // Trimmed: the API trims strings, so a value cut at a space would come back shorter.
      return truncate(`${field.label} ${String.fromCharCode(65 + (n % 26))}${n} ${context.tag}`, field.maxLength).trim();
    // Small values from zero up (a field that also takes negative amounts, a price, gets positive ones).
    case 'integer':
      return Math.max(field.minimum ?? 0, 0) + withinRange(field, n) + 1;
    case 'number':
      return Math.max(field.minimum ?? 0, 0) + withinRange(field, n) + 1.5;
    case 'decimal':
      return Math.max(field.minimum ?? 0, 0) + withinRange(field, n) + 1.25;
    case 'boolean':
      return n % 2 === 0;
    case 'date':
      return `2025-01-${String(10 + (n % 18)).padStart(2, '0')}`;
    case 'datetime':
      return `2025-01-${String(10 + (n % 18)).padStart(2, '0')} 10:00:00`;
  }
}

export function validPayload(def: ResourceDef, context: PayloadContext, n: number): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const field of writableFields(def)) {
    // Of two fields that exclude each other (a due date or a payment term), the first one.
    if (field.excludes && field.excludes in payload) continue;
    // A whole record takes a boolean's example when it has one: a switch that brings rules of its
    // own (a payment term's early discount allows one due term only) stays as records usually have it.
    payload[field.name] = field.type === 'boolean' && typeof field.example === 'boolean' ? field.example : sampleValue(field, context, n, def);
  }
  return payload;
}

/** What the response shows for a value that was sent. */
export function expectedOutput(field: FieldDef, sent: unknown): unknown {
  if (sent === null || sent === undefined) return null;
  switch (field.type) {
    case 'decimal':
      return formatDecimal(sent, field.scale ?? 2);
    case 'date':
      return `${sent}T00:00:00.000000Z`;
    case 'datetime':
      return formatTimestamp(sent);
    case 'integer':
      return Number(sent);
    case 'boolean':
      return Boolean(sent);
    default:
      return sent;
  }
}

/** Fields a create or update response shows as they were sent (ids and records show through includes). */
export function echoedFields(def: ResourceDef): FieldDef[] {
  return writableFields(def).filter((field) => field.output);
}

/** The other end of the date range a field starts or ends (`until`): the two are sent together. */
export function rangePartner(def: ResourceDef, field: FieldDef): FieldDef | undefined {
  if (field.until) return def.fields.get(field.until);
  return [...def.fields.values()].find((other) => other.until === field.name);
}

/** The value to put in `filter[name]=` to match a record's output value. */
export function filterValue(field: FieldDef, output: unknown): string {
  if (field.type === 'date') return String(output).slice(0, 10);
  return String(output);
}

export function sameValue(field: FieldDef, a: unknown, b: unknown): boolean {
  if (a === null || b === null) return a === b;
  if (field.type === 'decimal' || field.type === 'number') return Number(a) === Number(b);
  if (field.type === 'date' || field.type === 'datetime') return String(a).slice(0, 10) === String(b).slice(0, 10);
  return a === b;
}

export interface InvalidCase {
  rule: string;
  value: unknown;
  message: string;
  /** The error key when it is not the field's name (`tags.0`). */
  key?: string;
}

/** Values that break one rule each, with the message the API must give. */
export function invalidValues(field: FieldDef, context: PayloadContext): InvalidCase[] {
  const cases: InvalidCase[] = [];
  const label = field.label;
  if (field.type === 'strings' || field.type === 'ids' || field.type === 'records') {
    cases.push({ rule: 'array', value: 'not-a-list', message: `The ${label} field must be an array.` });
    if (field.minItems)
      cases.push({ rule: `minItems ${field.minItems}`, value: [], message: `The ${label} field must have at least ${field.minItems} ${field.minItems === 1 ? 'item' : 'items'}.` });
    if (field.type === 'ids' && field.by) {
      cases.push({ rule: `${field.by}s exist`, value: [`no-such-${context.tag}`], key: `${field.name}.0`, message: `The selected ${label}.0 is invalid.` });
      cases.push({ rule: `${field.by}s are strings`, value: [12], key: `${field.name}.0`, message: `The ${label}.0 field must be a string.` });
    } else if (field.type === 'ids') {
      cases.push({ rule: 'ids exist', value: [99999999], key: `${field.name}.0`, message: `The selected ${label}.0 is invalid.` });
      cases.push({ rule: 'ids are integers', value: ['x'], key: `${field.name}.0`, message: `The ${label}.0 field must be an integer.` });
    }
    if (field.type === 'strings') cases.push({ rule: 'strings', value: [12], key: `${field.name}.0`, message: `The ${label}.0 field must be a string.` });
    if (field.type === 'records') cases.push({ rule: 'records are objects', value: ['x'], key: `${field.name}.0`, message: `The ${label}.0 field must be an object.` });
    return cases;
  }
  if (field.maxLength !== undefined && !field.enum && !field.format) {
    cases.push({
      rule: `maxLength ${field.maxLength}`,
      value: 'x'.repeat(field.maxLength + 1),
      message: `The ${label} field must not be greater than ${field.maxLength} characters.`,
    });
  }
  if (field.minimum !== undefined) cases.push({ rule: `minimum ${field.minimum}`, value: field.minimum - 1, message: `The ${label} field must be at least ${field.minimum}.` });
  if (field.maximum !== undefined)
    cases.push({ rule: `maximum ${field.maximum}`, value: field.maximum + 1, message: `The ${label} field must not be greater than ${field.maximum}.` });
  if (field.format === 'email') cases.push({ rule: 'email', value: 'not-an-email', message: `The ${label} field must be a valid email address.` });
  if (field.format === 'time-zone')
    cases.push({ rule: 'time zone', value: 'Mars/Base', message: `The ${label} field must be a valid timezone (an IANA name such as Europe/Zurich).` });
  if (field.format === 'hex-color') cases.push({ rule: 'hex colour', value: 'red', message: `The ${label} field must be a valid hexadecimal color.` });
  if (field.enum) cases.push({ rule: 'enum', value: `not-${context.tag}`, message: `The selected ${label} is invalid. Allowed values: ${field.enum.join(', ')}.` });
  if (field.references) cases.push({ rule: 'reference', value: 99999999, message: `The selected ${label} is invalid.` });
  if (field.type === 'date') cases.push({ rule: 'date', value: '2025-02-30', message: `The ${label} field must be a valid date in the format YYYY-MM-DD.` });
  if (field.type === 'integer') cases.push({ rule: 'integer', value: field.numericString ? '12a' : 1.5, message: `The ${label} field must be an integer.` });
  if (field.type === 'number' || field.type === 'decimal') cases.push({ rule: 'number', value: 'many', message: `The ${label} field must be a number.` });
  if ((field.type === 'string' || field.type === 'text') && !field.enum) cases.push({ rule: 'string', value: 12345, message: `The ${label} field must be a string.` });
  if (field.type === 'boolean') cases.push({ rule: 'boolean', value: 'perhaps', message: `The ${label} field must be true or false.` });
  return cases;
}

/** `n`, wrapped so that a number built from it stays below the field's maximum (a percentage, a day of the month). */
function withinRange(field: FieldDef, n: number): number {
  const span = field.maximum === undefined ? Infinity : Math.floor(field.maximum - Math.max(field.minimum ?? 0, 0)) - 2;
  return Number.isFinite(span) && span > 0 ? n % span : n;
}

function truncate(value: string, max: number | undefined): string {
  return max !== undefined && value.length > max ? value.slice(0, max) : value;
}
