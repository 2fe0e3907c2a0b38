// What one unit of writing changed, collected while it runs and written to change_log at its end
// (engine/changes/record-changes.ts): the engine's own writes, their nested records, and what behaviours add
// (context.changes: a delivery created by an order's confirmation, the stock quantities a
// validation moved). Deletions carry the last state read before deleting.

import type { Knex } from 'knex';
import { perTransaction } from './per-transaction.ts';

/** A change's kind: created, updated, deleted, restored, force_deleted, or an action's (validated). */
export type ChangeKind = string;

export interface PendingChange {
  resource: string;
  id: number;
  kind: ChangeKind;
  /** An update's changed field names. */
  changed?: string[];
  /**
   * The stored row to show, when the record is not to be read back: a deletion's last state (the
   * record is gone when the change is written), or a row the write itself returned in full.
   */
  state?: Record<string, unknown>;
}

/** Finds the records the database changes along with a hard delete (engine/changes/dependents.ts). */
export interface DependentsTracker {
  beforeDelete(trx: Knex.Transaction, changes: ChangeSet, resource: string, ids: readonly number[]): Promise<void>;
}

export class ChangeSet {
  readonly pending: PendingChange[] = [];
  /**
   * The records as the change recorder read them back at the unit's end, in its transaction, or as
   * their write returned them (addWritten): their own fields and embedded relations, as a show
   * reads them, by `<resource> <id>`. The request that wrote them answers with these rather than
   * reading them again.
   */
  readonly readBack = new Map<string, Record<string, unknown>>();

  constructor(private readonly dependents?: DependentsTracker) {}

  /** The record of `resource` with this id (or these ids) changed this way. */
  add(resource: string, ids: number | readonly number[], kind: ChangeKind, changed?: readonly string[]): void {
    for (const id of [ids].flat()) this.pending.push({ resource, id: Number(id), kind, ...(changed && { changed: [...changed] }) });
  }

  /** Records about to be deleted, with the rows read before the delete. */
  addDeleted(resource: string, rows: readonly Record<string, unknown>[], kind: ChangeKind = 'deleted'): void {
    for (const row of rows) this.pending.push({ resource, id: Number(row.id), kind, state: row });
  }

  /**
   * Rows about to be deleted for good, with their last state, and the records the database changes
   * along with them (references set to NULL, rows deleted by cascade): call it before the delete.
   */
  async removing(trx: Knex.Transaction, resource: string, rows: readonly Record<string, unknown>[], kind: ChangeKind = 'deleted'): Promise<void> {
    this.addDeleted(resource, rows, kind);
    if (rows.length > 0)
      await this.dependents?.beforeDelete(
        trx,
        this,
        resource,
        rows.map((row) => Number(row.id)),
      );
  }

  /** A record whose whole row (every field the API shows, its embedded relations loaded) the write returned: it is not read again. */
  addWritten(resource: string, row: Record<string, unknown>, kind: ChangeKind): void {
    this.pending.push({ resource, id: Number(row.id), kind, state: row });
    this.readBack.set(`${resource} ${Number(row.id)}`, row);
  }
}

const changeSets = perTransaction<ChangeSet>('This transaction is not a unit of writing of the engine: its changes would not be recorded.');

export const attachChanges = changeSets.attach;

/** The change set of the unit this transaction belongs to (the engine's writes add to it). */
export const changesOf = changeSets.of;
