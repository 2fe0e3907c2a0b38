// The value rules' keys on a field (`defaultFrom`, `nullMeans`, `related`, `stampedBy`,
// `checkCompany`, `requiredWhen`, and their options), for the definitions' loader: their
// meta-schema, their boot check (./check.ts) and their words in the references (./words.ts).
// `referencesWhere` is also a key of action bodies' fields, so its meta-schema stays in
// engine/definition/format.ts. What they do in a write: ./index.ts.
import { Type } from '@sinclair/typebox';
import { DefaultSource, MatchValue, Name, RelatedPath } from '../../definition/format.ts';
import type { RuleKey } from '../types.ts';
import { checkValueRules } from './check.ts';
import { describeValueRules } from './words.ts';

export const VALUE_KEYS: readonly RuleKey[] = [
  {
    key: 'referencesMessage',
    format: {
      at: 'field',
      schema: Type.String({
        minLength: 1,
        description: "the 422 of a referenced record outside referencesWhere, instead of 'The selected ... is invalid.'; {relation.column} names a value of the record written",
      }),
    },
  },
  {
    key: 'checkCompany',
    format: { at: 'field', schema: Type.Boolean({ description: "references: the referenced record is of the record's company, or of none (Odoo's check_company)" }) },
  },
  {
    key: 'related',
    format: {
      at: 'field',
      schema: Type.String({
        pattern: RelatedPath.pattern,
        description: 'relation.column: a stored copy of that column of the record the belongsTo relation names, kept in sync when that record changes (read-only)',
      }),
    },
    writtenByEngine: true,
  },
  {
    key: 'defaultFrom',
    format: {
      at: 'field',
      schema: Type.Union([DefaultSource, Type.Array(DefaultSource, { minItems: 1 })], {
        description: 'a default read when the record is written; a list: the first that gives a value',
      }),
    },
    // The value rules are checked and described together: a default may read a copy, and no
    // default may wait on itself through others.
    check: checkValueRules,
    describeField: describeValueRules,
  },
  {
    key: 'defaultOnChange',
    format: {
      at: 'field',
      schema: Type.Boolean({
        description: 'defaultFrom: on update too, when the relation key or field it reads changes and this field is not sent (a task moved to another project takes its customer)',
      }),
    },
  },
  {
    key: 'nullMeans',
    format: {
      at: 'field',
      schema: Type.Union([Type.Literal('default'), Type.Literal('unsent')], {
        description:
          'what a null sent means: default, the default (on update too: a tag cleared is grey again); unsent, as if not sent (the default on create, the stored value kept on update)',
      }),
    },
  },
  {
    key: 'defaultRequired',
    format: {
      at: 'field',
      schema: Type.Union([Type.Boolean(), Type.String({ minLength: 1 })], {
        description:
          "the record is not written without a value: left empty by its default, a 422 on the field ('The <field> field could not be resolved automatically.', or this message)",
      }),
    },
  },
  {
    key: 'stampedBy',
    format: {
      at: 'field',
      schema: Type.String({
        pattern: '^[a-z][a-z0-9_]*$',
        description: 'a boolean field of the record: this time is set when it becomes true (an earlier one kept), cleared when it becomes false (read-only)',
      }),
    },
    writtenByEngine: true,
  },
  {
    key: 'requiredWhen',
    format: {
      at: 'field',
      schema: Type.Object(
        {
          when: Type.Record(Name, Type.Array(MatchValue, { minItems: 1 }), {
            additionalProperties: false,
            minProperties: 1,
            description: 'the values of the record (sent, else stored) that make it required: {type: [blanket_order]}',
          }),
          message: Type.Optional(Type.String({ minLength: 1, description: "the 422's message, instead of 'The <field> field is required when <column> is <value>.'" })),
        },
        { additionalProperties: false, description: 'required while the record has these values (a blanket order has a start date): never left empty, on create or update' },
      ),
    },
  },
];
