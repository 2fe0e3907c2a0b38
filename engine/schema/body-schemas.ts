// Create and update body schemas of a resource, from its writable fields.
import { Type, type TObject } from '@sinclair/typebox';
import type { FieldSet, ResourceDef } from '../definition/types.ts';
import { fieldInputSchema } from './field-schema.ts';

export function writableFields(def: FieldSet) {
  return [...def.fields.values()].filter((field) => field.writable);
}

/** Required fields are required; unknown keys are allowed and dropped, as the original API does. */
export function createBodySchema(def: ResourceDef): TObject {
  const properties = Object.fromEntries(writableFields(def).map((field) => [field.name, field.required ? fieldInputSchema(field) : Type.Optional(fieldInputSchema(field))]));
  return Type.Object(properties, { title: `${def.label} (create)` });
}

/** Every field optional: PUT changes only the fields sent. */
export function updateBodySchema(def: ResourceDef): TObject {
  const properties = Object.fromEntries(writableFields(def).map((field) => [field.name, Type.Optional(fieldInputSchema(field))]));
  return Type.Object(properties, { title: `${def.label} (update)` });
}
