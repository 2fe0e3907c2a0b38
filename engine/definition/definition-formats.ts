// The meta-schema a definition file is checked against (load.ts): format.ts's keys, and those of
// the rule keys the loader is given (engine/keys/), at the top level, on a field or on a relation.
import { type TObject, Type } from '@sinclair/typebox';
import { ActionFormat, ActionName, FieldFormat, Name, RelationFormat, RelationName, ResourceFormat } from './format.ts';
import type { DefinitionKey } from './rule-key.ts';

export interface DefinitionFormats {
  /** A served definition. */
  resource: TObject;
  /** A base that others extend: the same keys, none required. */
  abstract: TObject;
}

export function definitionFormats(keys: readonly DefinitionKey[]): DefinitionFormats {
  const at = (place: DefinitionKey['format']['at']) => Object.fromEntries(keys.filter((key) => key.format.at === place).map((key) => [key.key, Type.Optional(key.format.schema)]));
  const field = Type.Object({ ...FieldFormat.properties, ...at('field') }, { additionalProperties: false });
  const relation = Type.Object({ ...RelationFormat.properties, ...at('relation') }, { additionalProperties: false });
  const action = Type.Object({ ...ActionFormat.properties, ...at('action') }, { additionalProperties: false });
  const actions = ResourceFormat.properties.actions;
  const resource = Type.Object(
    {
      ...ResourceFormat.properties,
      ...at('resource'),
      fields: Type.Record(Name, field, { additionalProperties: false }),
      relations: Type.Optional(Type.Record(RelationName, relation, { additionalProperties: false })),
      actions: Type.Optional(Type.Record(ActionName, action, { additionalProperties: false, description: actions.description })),
    },
    { additionalProperties: false },
  );
  return { resource, abstract: Type.Partial(resource) };
}
