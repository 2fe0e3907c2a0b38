// One field definition → the TypeBox schema of its value in a request body.
import { Type, type TSchema } from '@sinclair/typebox';
import type { FieldDef } from '../definition/types.ts';

/** The schema of a present, non-null value. */
export function fieldValueSchema(field: FieldDef): TSchema {
  const common = field.description ? { description: field.description } : {};
  const bounds = { ...(field.minimum !== undefined && { minimum: field.minimum }), ...(field.maximum !== undefined && { maximum: field.maximum }) };
  switch (field.type) {
    case 'integer':
      return field.numericString ? Type.Union([Type.Integer(bounds), Type.String({ pattern: '^[0-9]+$' })], common) : Type.Integer({ ...bounds, ...common });
    case 'number':
    case 'decimal':
      return Type.Number({ ...bounds, ...common });
    case 'boolean':
      // Laravel's boolean rule: true, false, 1 and 0.
      return Type.Union([Type.Boolean(), Type.Literal(0), Type.Literal(1)], common);
    case 'date':
      return Type.String({ format: 'date', ...common });
    case 'datetime':
      return Type.String({ format: 'date-time', ...common });
    case 'strings':
      return Type.Array(Type.String(), {
        ...(field.minItems !== undefined && { minItems: field.minItems }),
        ...(field.maxItems !== undefined && { maxItems: field.maxItems }),
        ...common,
      });
    case 'ids': {
      // `by`: the related records are named by another column (a role's permissions by name).
      const item = field.by ? Type.String({ minLength: 1 }) : Type.Integer({ minimum: 1 });
      // maxItems is checked once repeats are gone (body-validator.ts); the document still states it.
      return Type.Array(item, { ...(field.minItems !== undefined && { minItems: field.minItems }), ...common });
    }
    case 'records':
      // Each entry is checked against the related resource's own fields (body-validator.ts).
      return Type.Array(Type.Object({}), {
        ...(field.minItems !== undefined && { minItems: field.minItems }),
        ...(field.maxItems !== undefined && { maxItems: field.maxItems }),
        ...common,
      });
    case 'string':
    case 'text': {
      if (field.enum)
        return Type.Union(
          field.enum.map((value) => Type.Literal(value)),
          common,
        );
      return Type.String({
        ...(field.maxLength !== undefined && { maxLength: field.maxLength }),
        ...(field.minLength !== undefined && { minLength: field.minLength }),
        ...(field.format && { format: field.format }),
        ...common,
      });
    }
  }
}

/** The schema of the property in a body: the value, or null when the field is nullable. */
export function fieldInputSchema(field: FieldDef): TSchema {
  const value = fieldValueSchema(field);
  return field.nullable ? Type.Union([value, Type.Null()]) : value;
}
