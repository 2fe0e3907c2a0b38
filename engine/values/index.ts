// The value vocabulary of the definitions, applied by the write path (engine/routes/write-record.ts)
// to every record of a write together, before the behaviours run (they see the results):
// copies (`related`), each after the fields it reads. After an update, the copies of the changed
// record follow it (related.ts).
import type { Knex } from 'knex';
import type { ChangeSet } from '../behaviours/change-set.ts';
import type { AuthUser } from '../behaviours/types.ts';
import type { Registry } from '../definition/registry.ts';
import type { ResourceDef } from '../definition/types.ts';
import { valuePlan } from './plan.ts';
import { ReferencedRows, type Entry } from './record-values.ts';
import { fillCopy, syncCopies, type WrittenRow } from './related.ts';

export interface ValueContext {
  trx: Knex.Transaction;
  registry: Registry;
  user: AuthUser;
  changes: ChangeSet;
}

/** Whether a create of the resource needs the value rules (which read the database): it cannot be a lone INSERT. */
export function createNeedsValueRules(def: ResourceDef): boolean {
  let needs = createRules.get(def);
  if (needs === undefined) {
    needs = [...def.fields.values()].some((field) => field.related !== undefined);
    createRules.set(def, needs);
  }
  return needs;
}

const createRules = new WeakMap<ResourceDef, boolean>();

/** Applies the resource's value rules to the records of one write. */
export async function applyValueRules(context: ValueContext, def: ResourceDef, mode: 'create' | 'update', entries: readonly Entry[]): Promise<void> {
  const plan = valuePlan(def);
  if (!plan.any || entries.length === 0) return;
  const rows = new ReferencedRows(context.trx, context.registry, def, plan.columns);
  for (const field of plan.fills) await fillCopy(def, field, rows, entries, mode);
}

/** After records of `def` were updated: the copies other records keep of their changed columns follow. */
export function syncRelated(context: Pick<ValueContext, 'trx' | 'registry' | 'changes'>, def: ResourceDef, written: readonly WrittenRow[]): Promise<void> {
  return syncCopies(context.trx, context.registry, context.changes, def, written);
}
