// What an action writes on its record without code (`set:` on the action): the state it moves to,
// a flag, `now` for a date or time, `toggle` for a flag turned over, or a value picked by the
// stored one (`{purchase: done, done: purchase}`). Written in the action's transaction, on the
// locked row, after its behaviour when it has one; the copies other records keep of the columns
// it changed (`related`: an order's lines' state) follow in the same transaction.
import type { Knex } from 'knex';
import type { ChangeSet } from '../behaviours/change-set.ts';
import type { Registry } from '../definition/registry.ts';
import type { ActionDef, ResourceDef } from '../definition/types.ts';
import { nowTimestamp } from '../serialize/value-formats.ts';
import { syncRelated } from '../values/index.ts';
import { truth } from '../definition/match.ts';
import { updateRowWithWords } from '../keys/search.ts';

export interface SetContext {
  trx: Knex.Transaction;
  registry: Registry;
  changes: ChangeSet;
}

export async function applySet(context: SetContext, def: ResourceDef, action: ActionDef, id: number): Promise<void> {
  if (!action.set) return;
  const { trx } = context;
  const now = nowTimestamp();
  // Read again: the behaviour may have moved the row on.
  const current = await trx(def.table).where('id', id).first();
  const values: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(action.set)) {
    const type = def.fields.get(column)?.type;
    if (value === 'now' && (type === 'date' || type === 'datetime')) values[column] = type === 'date' ? now.slice(0, 10) : now;
    else if (value === 'toggle' && type === 'boolean') values[column] = !truth(current[column]);
    else if (value !== null && typeof value === 'object') values[column] = value[String(current[column])] ?? current[column];
    else values[column] = value;
  }
  if (def.timestamps) values.updated_at = now;
  await updateRowWithWords(trx, def, Number(id), values, current);
  await syncRelated(context, def, [{ id, columns: values, current }]);
}

/** The values in words, for the API reference. */
export function describeSet(action: ActionDef): string {
  if (!action.set) return '';
  const words = (value: unknown) => {
    if (value === 'now') return 'now';
    if (value === 'toggle') return 'the opposite of its value';
    if (value !== null && typeof value === 'object')
      return Object.entries(value)
        .map(([from, to]) => `\`${to}\` from \`${from}\``)
        .join(', ');
    return `\`${value}\``;
  };
  return `Sets ${Object.entries(action.set)
    .map(([column, value]) => `\`${column}\` to ${words(value)}`)
    .join(', ')}.`;
}
