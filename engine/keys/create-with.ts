// `createWith` on a hasMany relation: the related records every new record gets, created in its
// transaction as a POST under it would create them (their own rules and steps run):
//
//   dueTerms: { kind: hasMany, resource: accounts/due-terms, foreignKey: payment_id,
//               createWith: [{ value: percent, value_amount: 100, delay_type: days_after, nb_days: 0 }] }
//
// A payment term is due at once until its due terms are edited.
import { Type } from '@sinclair/typebox';
import { Name } from '../definition/format.ts';
import { didYouMean } from '../definition/suggest.ts';
import type { RuleKey } from './types.ts';

export const createWith: RuleKey = {
  key: 'createWith',
  format: {
    at: 'relation',
    schema: Type.Array(Type.Record(Name, Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]), { additionalProperties: false }), {
      minItems: 1,
      maxItems: 20,
      description: "hasMany: the related records every new record gets, created with it as a POST under it would create them (a payment term's first due term)",
    }),
  },
  // Each column a field of the related resource to give, and a value of its `enum`.
  check(def, resources, problem) {
    for (const relation of def.relations.values()) {
      if (!relation.createWith) continue;
      const at = `relations.${relation.name}.createWith`;
      const child = resources.get(relation.resource);
      if (relation.kind !== 'hasMany') problem(at, 'records created with the record are of a hasMany relation');
      if (!child) continue;
      relation.createWith.forEach((values, index) => {
        for (const [column, value] of Object.entries(values)) {
          const target = child.fields.get(column);
          if (!target?.stored || column === relation.foreignKey)
            problem(`${at}.${index}.${column}`, `"${column}" is not a field of ${child.name} to give${didYouMean(column, child.fields.keys())}`);
          else if (target.enum && !target.enum.includes(String(value)))
            problem(`${at}.${index}.${column}`, `"${value}" is not one of ${column}'s values (${target.enum.join(', ')})`);
        }
      });
    }
  },
  step: {
    key: 'createWith',
    uses: (def, _registry, phase) => phase === 'create' && [...def.relations.values()].some((relation) => relation.createWith),
    async afterInsert(context, def, written) {
      for (const relation of def.relations.values()) {
        if (!relation.createWith) continue;
        const bodies = written.flatMap(({ id }) => relation.createWith!.map((values) => ({ ...values, [relation.foreignKey]: id })));
        await context.records(relation.resource).createMany(bodies, { system: true });
      }
    },
  },
};
