// `set:` (on an action): what the action writes on its record without code: the state it moves
// to, a flag, `now` for a date or time, `toggle` for a flag turned over, or a value picked by the
// stored one (`{purchase: done, done: purchase}`):
//
//   confirm: { set: { state: sale, date_order: now }, when: { state: [draft, sent] }, message: Order confirmed. }
//
// Written in the action's transaction, on the locked row, after its behaviour when it has one;
// the copies other records keep of the columns it changed (`related`: an order's lines' state)
// follow in the same transaction.
import { Type } from '@sinclair/typebox';
import type { Knex } from 'knex';
import type { ChangeSet } from '../behaviours/change-set.ts';
import { truth } from '../definition/match.ts';
import type { Registry } from '../definition/registry.ts';
import { didYouMean } from '../definition/suggest.ts';
import type { ActionDef, ResourceDef } from '../definition/types.ts';
import { nowTimestamp } from '../serialize/value-formats.ts';
import { todayFor } from './company-today.ts';
import { syncRelated } from './values/index.ts';
import { updateRowWithWords } from './search.ts';
import type { RuleKey } from './types.ts';

export const set: RuleKey = {
  key: 'set',
  format: {
    at: 'action',
    schema: Type.Record(
      Type.String({ pattern: '^[a-z][a-z0-9_]*$' }),
      Type.Union([
        Type.String(),
        Type.Number(),
        Type.Boolean(),
        Type.Null(),
        Type.Record(Type.String({ minLength: 1 }), Type.String(), {
          minProperties: 1,
          description: 'the value to write, by the stored one: {purchase: done, done: purchase}; a value not listed is kept',
        }),
      ]),
      {
        additionalProperties: false,
        minProperties: 1,
        description:
          'the values the action writes on its record, after its behaviour if it has one (state: confirmed); `now` is the clock for a datetime field and today in the zone of the record’s company for a date, `toggle` turns a boolean over',
      },
    ),
  },
  check(def, _resources, problem) {
    for (const action of def.actions.values()) {
      const at = `actions.${action.name}`;
      for (const [column, value] of Object.entries(action.set ?? {})) {
        const target = def.fields.get(column);
        if (!target?.stored) problem(`${at}.set.${column}`, `"${column}" is not a field of this resource${didYouMean(column, def.fields.keys())}`);
        if (!target) continue;
        if (value === 'now' && target.type !== 'date' && target.type !== 'datetime' && target.type !== 'string')
          problem(`${at}.set.${column}`, '`now` sets a date or datetime field');
        if (value === 'toggle' && target.type !== 'boolean') problem(`${at}.set.${column}`, '`toggle` turns a boolean field over');
        const byStored = value !== null && typeof value === 'object' ? value : undefined;
        if (byStored) {
          // Each value `when` lets the record have picks the one written.
          for (const from of action.when?.[column] ?? []) if (!(String(from) in byStored)) problem(`${at}.set.${column}`, `says nothing for "${from}", which \`when\` allows`);
          if (target.enum)
            for (const from of Object.keys(byStored))
              if (!target.enum.includes(from)) problem(`${at}.set.${column}`, `"${from}" is not one of ${column}'s values (${target.enum.join(', ')})`);
        }
        const after = action.to?.[column];
        for (const written of byStored ? Object.values(byStored) : value === 'toggle' ? [] : [value]) {
          if (target.enum && !target.enum.includes(String(written))) problem(`${at}.set.${column}`, `"${written}" is not one of ${column}'s values (${target.enum.join(', ')})`);
          if (after && !after.includes(String(written))) problem(`${at}.set.${column}`, `"${written}" is not among what \`to\` says ${column} becomes (${after.join(', ')})`);
        }
      }
    }
  },
};

export interface SetContext {
  trx: Knex.Transaction;
  registry: Registry;
  changes: ChangeSet;
}

/** Writes the action's `set:` on its record (after its behaviour, which may have moved the row on). */
export async function applySet(context: SetContext, def: ResourceDef, action: ActionDef, id: number): Promise<void> {
  if (!action.set) return;
  const { trx } = context;
  const now = nowTimestamp();
  // Read again: the behaviour may have moved the row on.
  const current = await trx(def.table).where('id', id).first();
  const values: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(action.set)) {
    const type = def.fields.get(column)?.type;
    if (value === 'now' && (type === 'date' || type === 'datetime')) values[column] = type === 'date' ? await todayFor(trx, current.company_id) : now;
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
