// The values a lock's or an action's `when` compares a column with (engine/keys/locks.ts,
// engine/definition/format.ts).
import { Type } from '@sinclair/typebox';

/** A value a lock or an action's `when` compares a column with. */
export const MatchValue = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

/** Any value but this one: `{'<>': null}`, a column that has a value (a document that has its number). */
export const NotValue = Type.Object(
  { '<>': Type.Union([MatchValue, Type.Null()]) },
  { additionalProperties: false, description: "any value but this one: {'<>': null} (the column has a value)" },
);
