// The meta-schema of a definition's `tree:` key (engine/rules/tree.ts), part of ResourceFormat.
import { Type, type Static } from '@sinclair/typebox';

const Name = Type.String({ pattern: '^[a-z][a-z0-9_]*$' });

export const TreeFormat = Type.Object(
  {
    parent: Type.String({ pattern: Name.pattern, description: 'the field naming the parent record (of the same resource)' }),
    path: Type.Union(
      [
        Type.String({ pattern: Name.pattern, description: 'a read-only field: the ids of the ancestors from the root ("/1/6/", "/" for a root)' }),
        Type.Object(
          {
            field: Name,
            self: Type.Optional(Type.Boolean({ description: 'the ids from the root down to the record itself ("1/6/9/")' })),
          },
          { additionalProperties: false },
        ),
      ],
      { description: 'the stored path of ids, kept when a record moves' },
    ),
    fullName: Type.Optional(
      Type.Object(
        {
          field: Type.String({ pattern: Name.pattern, description: 'a read-only field: the full name' }),
          from: Type.String({ pattern: Name.pattern, description: "the field of each record's own name" }),
          separator: Type.String({ minLength: 1 }),
          nameOnlyWhere: Type.Optional(
            Type.Record(Name, Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
              additionalProperties: false,
              description: 'records with these values show their own name only, as a root does (a view location)',
            }),
          ),
        },
        { additionalProperties: false, description: "the parent's full name, the separator and the record's name; kept when an ancestor is renamed or moved" },
      ),
    ),
    cycleMessage: Type.Optional(Type.String({ minLength: 1, description: 'the 422 on the parent field of a record moved under itself or a descendant' })),
  },
  { additionalProperties: false, description: 'records under a parent, with a stored path and full name (no cycles)' },
);

export type TreeFormat = Static<typeof TreeFormat>;
