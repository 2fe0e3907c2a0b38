// `onDelete: restrict` on a hasMany relation: an owner that still has such records (trashed ones
// included: they could be restored and would point at nothing) is not removed for good, 409.
import { Type } from '@sinclair/typebox';
import { ConflictError } from '../errors/http-errors.ts';
import type { RuleKey } from './types.ts';

export const onDelete: RuleKey = {
  key: 'onDelete',
  format: { at: 'relation', schema: Type.Literal('restrict', { description: 'hasMany: refuse to delete the owner while related rows exist' }) },
  check(def, _resources, problem) {
    for (const relation of def.relations.values())
      if (relation.onDelete && relation.kind !== 'hasMany') problem(`relations.${relation.name}.onDelete`, 'onDelete applies to hasMany relations');
  },
  step: {
    key: 'onDelete: restrict',
    uses: (def, _registry, phase) => phase === 'remove' && [...def.relations.values()].some((relation) => relation.kind === 'hasMany' && relation.onDelete === 'restrict'),
    async beforeRemove(context, def, rows, { hard }) {
      if (!hard) return;
      for (const relation of def.relations.values()) {
        if (relation.kind !== 'hasMany' || relation.onDelete !== 'restrict') continue;
        const target = context.registry.get(relation.resource);
        const child = await context
          .trx(target.table)
          .whereIn(
            relation.foreignKey,
            rows.map((row) => Number(row.id)),
          )
          .first('id');
        if (child) throw new ConflictError(`The ${def.label} cannot be deleted because it still has ${target.label} records (soft-deleted ones included). Remove them first.`);
      }
    },
  },
};
