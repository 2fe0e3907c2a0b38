// The body of a workflow action (a payment's amount, a reversal's reason), checked with the same
// rules and wording as a definition's fields: every problem at once, as 422 {message, errors}.
import { ValidationError, type FieldErrors } from '../../../engine/index.ts';

export interface BodyField {
  type: 'integer' | 'number' | 'date' | 'string';
  required?: boolean;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

export function actionBody<T extends Record<string, BodyField>>(
  body: Record<string, unknown>,
  fields: T,
): { [K in keyof T]?: T[K]['type'] extends 'integer' | 'number' ? number : string } {
  const errors: FieldErrors = {};
  const values: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    const label = name.replace(/_/g, ' ');
    let value = body[name];
    if (typeof value === 'string') value = value.trim() === '' ? null : value.trim();
    if (value === undefined || value === null) {
      if (field.required) errors[name] = [`The ${label} field is required.`];
      continue;
    }
    const problem = check(field, label, value);
    if (problem) errors[name] = [problem];
    else values[name] = value;
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return values as ReturnType<typeof actionBody<T>>;
}

function check(field: BodyField, label: string, value: unknown): string | undefined {
  switch (field.type) {
    case 'integer':
      if (!Number.isInteger(value)) return `The ${label} field must be an integer.`;
      return bounds(field, label, value as number);
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return `The ${label} field must be a number.`;
      return bounds(field, label, value);
    case 'date':
      if (
        typeof value !== 'string' ||
        !/^\d{4}-\d{2}-\d{2}$/.test(value) ||
        Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ||
        new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value
      ) {
        return `The ${label} field must be a valid date in the format YYYY-MM-DD.`;
      }
      return undefined;
    default:
      if (typeof value !== 'string') return `The ${label} field must be a string.`;
      if (field.maxLength !== undefined && value.length > field.maxLength) return `The ${label} field must not be greater than ${field.maxLength} characters.`;
      return undefined;
  }
}

function bounds(field: BodyField, label: string, value: number): string | undefined {
  if (field.minimum !== undefined && value < field.minimum) return `The ${label} field must be at least ${field.minimum}.`;
  if (field.maximum !== undefined && value > field.maximum) return `The ${label} field must not be greater than ${field.maximum}.`;
  return undefined;
}
