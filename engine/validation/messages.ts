// Validation messages in the wording of the original (Laravel) API.
import type { FieldDef } from '../definition/types.ts';

export const messages = {
  required: (f: FieldDef) => `The ${f.label} field is required.`,
  integer: (f: FieldDef) => `The ${f.label} field must be an integer.`,
  number: (f: FieldDef) => `The ${f.label} field must be a number.`,
  string: (f: FieldDef) => `The ${f.label} field must be a string.`,
  boolean: (f: FieldDef) => `The ${f.label} field must be true or false.`,
  date: (f: FieldDef) => `The ${f.label} field must be a valid date in the format YYYY-MM-DD.`,
  dateTime: (f: FieldDef) => `The ${f.label} field must be a valid date.`,
  email: (f: FieldDef) => `The ${f.label} field must be a valid email address.`,
  hexColor: (f: FieldDef) => `The ${f.label} field must be a valid hexadecimal color.`,
  timeZone: (f: FieldDef) => `The ${f.label} field must be a valid timezone (an IANA name such as Europe/Zurich).`,
  url: (f: FieldDef) => `The ${f.label} field must be a valid URL.`,
  maxBytes: (f: FieldDef) => `The ${f.label} field must not be greater than ${f.maxBytes} bytes.`,
  minLength: (f: FieldDef) => `The ${f.label} field must be at least ${f.minLength} characters.`,
  maxLength: (f: FieldDef) => `The ${f.label} field must not be greater than ${f.maxLength} characters.`,
  minimum: (f: FieldDef) => `The ${f.label} field must be at least ${f.minimum}.`,
  maximum: (f: FieldDef) => `The ${f.label} field must not be greater than ${f.maximum}.`,
  invalidChoice: (f: FieldDef) => `The selected ${f.label} is invalid. Allowed values: ${f.enum?.join(', ')}.`,
  notFound: (f: FieldDef) => `The selected ${f.label} is invalid.`,
  taken: (f: FieldDef) => `The ${f.label} has already been taken.`,
  array: (f: FieldDef) => `The ${f.label} field must be an array.`,
  object: (f: FieldDef) => `The ${f.label} field must be an object.`,
  maxItems: (f: FieldDef) => `The ${f.label} field must not have more than ${f.maxItems} items.`,
  excludes: (f: FieldDef, other: FieldDef) => `The ${f.label} field cannot be given together with the ${other.label} field.`,
  requiredWith: (f: FieldDef, other: FieldDef) => `The ${f.label} field is required when ${other.label} is present.`,
  beforeOrEqual: (f: FieldDef, other: FieldDef) => `The ${f.label} field must be a date before or equal to ${other.label}.`,
  afterOrEqual: (f: FieldDef, other: FieldDef) => `The ${f.label} field must be a date after or equal to ${other.label}.`,
  minItems: (f: FieldDef) => `The ${f.label} field must have at least ${f.minItems} ${f.minItems === 1 ? 'item' : 'items'}.`,
};

/** The message for a value that failed its field schema, following Laravel's rule order. */
export function describeInvalid(field: FieldDef, value: unknown): string {
  if (value === null) return messages.required(field);
  switch (field.type) {
    case 'integer':
      if (!(Number.isInteger(value) || (field.numericString && typeof value === 'string' && /^[0-9]+$/.test(value)))) return messages.integer(field);
      return describeBounds(field, Number(value));
    case 'number':
    case 'decimal':
      if (typeof value !== 'number' || !Number.isFinite(value)) return messages.number(field);
      return describeBounds(field, value);
    case 'boolean':
      return messages.boolean(field);
    case 'date':
      return messages.date(field);
    case 'datetime':
      return messages.dateTime(field);
    case 'strings':
    case 'ids':
    case 'records':
      if (!Array.isArray(value)) return messages.array(field);
      if (field.minItems !== undefined && value.length < field.minItems) return messages.minItems(field);
      if (field.maxItems !== undefined && value.length > field.maxItems) return messages.maxItems(field);
      return messages.array(field);
    case 'string':
    case 'text':
      if (typeof value !== 'string') return messages.string(field);
      if (field.enum) return messages.invalidChoice(field);
      if (field.maxLength !== undefined && value.length > field.maxLength) return messages.maxLength(field);
      if (field.minLength !== undefined && value.length < field.minLength) return messages.minLength(field);
      if (field.format === 'email') return messages.email(field);
      if (field.format === 'hex-color') return messages.hexColor(field);
      if (field.format === 'url') return messages.url(field);
      if (field.format === 'time-zone') return messages.timeZone(field);
      return messages.string(field);
  }
}

function describeBounds(field: FieldDef, value: number): string {
  if (field.minimum !== undefined && value < field.minimum) return messages.minimum(field);
  if (field.maximum !== undefined && value > field.maximum) return messages.maximum(field);
  return messages.number(field);
}
