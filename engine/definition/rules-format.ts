// The meta-schema of the workflow vocabulary (engine/rules): document numbers (`sequence:` on a
// field), what a record's state forbids (`locks:`), and the values an action writes (`set:`).
import { Type, type Static } from '@sinclair/typebox';

/** `{year}`, a field (`{journal_id}`) or `relation.column` (`{journal.code}`) of the record numbered. */
const Template = Type.String({ pattern: '^([^{}]|\\{([a-z][a-z0-9_]*|[a-z][A-Za-z0-9]*\\.[a-z][a-z0-9_]*)\\})*$' });

export const SequenceFormat = Type.Object(
  {
    code: Type.String({
      ...Template,
      minLength: 1,
      maxLength: 120,
      description: 'the counter, a row of the `sequences` table (per company): `sales.order`; `{year}` and `{field}` placeholders give one counter per year or per value',
    }),
    prefix: Type.Optional(Type.String({ ...Template, maxLength: 60, description: 'written before the number: `S`, `SP/`, `{journal.code}/{year}/`' })),
    padding: Type.Optional(Type.Integer({ minimum: 1, maximum: 12, description: 'the digits of the number, zeros in front (default 5)' })),
    perCompany: Type.Optional(Type.Boolean({ description: "one counter per company (the record's company_id); default true when the resource has a company_id" })),
    year: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9_]*$', description: 'the date field whose year `{year}` is (default: today)' })),
    on: Type.Optional(
      Type.String({
        pattern: '^[a-z][a-z]*(-[a-z]+)*$',
        description: '`create` (default), or an action of the resource: the number is taken when the action runs on a record that has none yet',
      }),
    ),
  },
  { additionalProperties: false },
);

/** A value a lock or an action's `when` compares a column with. */
export const MatchValue = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

/** Any value but this one: `{'<>': null}`, a column that has a value (a document that has its number). */
export const NotValue = Type.Object(
  { '<>': Type.Union([MatchValue, Type.Null()]) },
  { additionalProperties: false, description: "any value but this one: {'<>': null} (the column has a value)" },
);

export type SequenceFormat = Static<typeof SequenceFormat>;
