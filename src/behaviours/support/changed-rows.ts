// The records a behaviour wrote beside the one it acts on, added to the unit's change feed
// (engine/changes): a delivery created by an order's confirmation, the moves an operation's
// workflow moves on, the stock quantities a validation changes. One read of their ids per call,
// whatever their number.
import type { Knex } from 'knex';
import { changesOf, type ChangeKind } from '../../../engine/index.ts';

/** Adds the rows `query` selects (its table's ids) as changes of `resource`. */
export async function changedRows(trx: Knex.Transaction, resource: string, query: Knex.QueryBuilder, kind: ChangeKind = 'updated'): Promise<void> {
  const ids = (await query.clone().clearSelect().pluck('id')).map(Number);
  if (ids.length > 0) changesOf(trx).add(resource, ids, kind);
}

/** Adds records of `resource` whose ids the behaviour already holds. */
export function changedIds(trx: Knex.Transaction, resource: string, ids: readonly unknown[], kind: ChangeKind = 'updated'): void {
  if (ids.length > 0) changesOf(trx).add(resource, ids.map(Number), kind);
}
