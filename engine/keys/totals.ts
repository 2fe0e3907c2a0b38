// `totals:` (on a field): what grouped totals (GET <list path>/aggregate) offer of it, when not
// what its type allows (engine/aggregate/offer.ts). The sum of unit prices, of percentages or of
// exchange rates is a number that means nothing, as Odoo's `aggregator` on such fields says:
//
//   price_unit: { type: decimal, totals: { measures: [avg, min, max] } }
//   response_code: { type: integer, totals: { measures: false } }    # groups, never summed
//   sort: { type: integer, totals: false }                            # neither
//
// A position among siblings (`append`) offers nothing unless it has a `totals` (which then
// replaces that default: what it does not name, the type gives).
// Checked at boot: a field the grouped totals could offer, and only what its type allows. Clients
// see the result in the reference (the aggregate operation's allowed `group_by` and `measures`)
// and in the field's words.
import { Type } from '@sinclair/typebox';
import { MEASURE_FUNCTIONS, narrowedTotals, typeGroups, typeMeasures } from '../aggregate/offer.ts';
import type { RuleKey } from './types.ts';

export const totals: RuleKey = {
  key: 'totals',
  format: {
    at: 'field',
    schema: Type.Union(
      [
        Type.Literal(false),
        Type.Object(
          {
            groupBy: Type.Optional(Type.Literal(false, { description: 'not a dimension of `group_by`' })),
            measures: Type.Optional(
              Type.Union([Type.Literal(false), Type.Array(Type.Union(MEASURE_FUNCTIONS.map((fn) => Type.Literal(fn))), { minItems: 1, uniqueItems: true })], {
                description: 'the functions `measures` may ask of it (`[avg, min, max]` for a unit price); false: none',
              }),
            ),
          },
          { additionalProperties: false, minProperties: 1 },
        ),
      ],
      { description: 'what grouped totals offer of the field when not all its type allows; false: it neither groups nor is measured (an order of application)' },
    ),
  },
  check(def, _resources, problem) {
    for (const field of def.fields.values()) {
      const asked = narrowedTotals(field);
      if (!asked) continue;
      const at = `fields.${field.name}.totals`;
      const functions = typeMeasures(def, field);
      if (!typeGroups(def, field) && functions.length === 0) {
        problem(at, "the grouped totals offer nothing of this field (not stored, not shown, or the record's own id)");
        continue;
      }
      if (field.totals === false) continue;
      if (asked.groupBy === false && !typeGroups(def, field))
        problem(at, 'groupBy: false turns off a dimension the field does not give (a stored field the API shows, not a long text)');
      if (Array.isArray(asked.measures)) {
        const outside = asked.measures.filter((fn) => !functions.includes(fn));
        if (outside.length > 0) problem(at, `the ${field.type} field takes ${functions.join(', ') || 'no measure'}, not ${outside.join(', ')}`);
      } else if (asked.measures === false && functions.length === 0) problem(at, 'measures: false turns off measures the field does not give');
    }
  },
  describeField(_def, field) {
    const asked = narrowedTotals(field);
    if (!asked) return [];
    if (asked.groupBy === false && asked.measures === false) return ['Not offered by the grouped totals.'];
    const listed = (items: readonly string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : items[0]!);
    return [
      asked.groupBy === false && 'The grouped totals do not group by it.',
      asked.measures === false && 'The grouped totals group by it but never measure it.',
      Array.isArray(asked.measures) && `The grouped totals measure it by ${listed(asked.measures)} only.`,
    ].filter((words): words is string => typeof words === 'string');
  },
};
