// What an action writes on its record without code (`set:` on the action): the state it moves to,
// a flag, `now` for a date or time. Written in the action's transaction, on the locked row, after
// its behaviour when it has one.
import type { Knex } from 'knex';
import type { ActionDef, ResourceDef } from '../definition/types.ts';
import { nowTimestamp } from '../serialize/value-formats.ts';

export async function applySet(trx: Knex.Transaction, def: ResourceDef, action: ActionDef, id: number): Promise<void> {
  if (!action.set) return;
  const now = nowTimestamp();
  const values: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(action.set)) {
    values[column] =
      value === 'now' && (def.fields.get(column)?.type === 'date' || def.fields.get(column)?.type === 'datetime')
        ? def.fields.get(column)?.type === 'date'
          ? now.slice(0, 10)
          : now
        : value;
  }
  if (def.timestamps) values.updated_at = now;
  await trx(def.table).where('id', id).update(values);
}

/** The values in words, for the API reference. */
export function describeSet(action: ActionDef): string {
  if (!action.set) return '';
  return `Sets ${Object.entries(action.set)
    .map(([column, value]) => `\`${column}\` to ${value === 'now' ? 'now' : `\`${value}\``}`)
    .join(', ')}.`;
}
