// Writes a unit's change set into change_log, in the unit's own transaction: a write that rolls
// back leaves no change, and a change never exists without its write. The records are read back
// through the transaction (they may not be committed yet) as the API shows them: one statement
// per resource and per embedded relation, and the changes go in with multi-row INSERTs, so the
// statements a write costs do not grow with its lines.
import type { Knex } from 'knex';
import type { Registry } from '../definition/registry.ts';
import type { Serializers } from '../serialize/record.ts';
import { nowTimestamp } from '../serialize/value-formats.ts';
import { CHANGE_COLUMNS, CHANGE_LOG, INSERT_CHANGE, recordsWithIds } from '../sql/change-log.ts';
import type { Columns } from '../sql/columns.ts';
import { sharedLockSuffix } from '../sql/dialect.ts';
import { includeTree, loadRelations } from '../sql/load-relations.ts';
import type { Row, TransactionStatements } from '../sql/statements.ts';
import { transactionStatements } from '../sql/transaction-statements.ts';
import type { ChangeSet, DependentsTracker, PendingChange } from '../behaviours/change-set.ts';
import { dependentsTracker } from './dependents.ts';

export { CHANGE_LOG };

export interface ChangeAuthor {
  userId: number | null;
  requestId: string | null;
}

export interface ChangeRecorder {
  /** In a knex transaction: reads through it, inserts many rows at once. */
  record(trx: Knex.Transaction, changes: ChangeSet, author: ChangeAuthor): Promise<void>;
  /** In a transaction of the prepared statements (a single-statement create): one prepared INSERT per change. */
  recordWith(statements: TransactionStatements, changes: ChangeSet, author: ChangeAuthor): Promise<void>;
  /** Finds what the database changes along with a hard delete; a unit's ChangeSet is made with it. */
  dependents: DependentsTracker;
}

export function changeRecorder(registry: Registry, columns: Columns, serializers: Serializers, knex: Knex): ChangeRecorder {
  const rowsOf = async (reads: Pick<TransactionStatements, 'all'>, changes: ChangeSet, author: ChangeAuthor) => {
    const pending = distinct(changes.pending);
    if (pending.length === 0) return [];
    const statements = reads;
    // Kept on the change set: the request that wrote the records answers with them.
    const current = changes.readBack;
    const byResource = new Map<string, number[]>();
    for (const change of pending) {
      if (change.state) continue;
      const ids = byResource.get(change.resource) ?? [];
      if (!ids.includes(change.id)) ids.push(change.id);
      byResource.set(change.resource, ids);
    }
    for (const [resource, ids] of byResource) {
      const def = registry.get(resource);
      const select = columns(def);
      const rows = await recordsWithIds(statements, def.table, select, ids);
      await loadRelations(statements, registry, columns, def, rows, includeTree(def.embed));
      for (const row of rows) current.set(`${resource} ${Number(row.id)}`, row);
    }
    const now = nowTimestamp();
    const rows = [];
    for (const change of pending) {
      const def = registry.get(change.resource);
      const stored = change.state ?? current.get(`${change.resource} ${change.id}`);
      // A record written and then removed in the same unit has nothing left to show.
      if (!stored) continue;
      const record = serializers.get(def.name)!(stored as Row);
      const scopeColumn = def.access.companyScope?.column;
      rows.push({
        resource: change.resource,
        record_id: change.id,
        kind: change.kind,
        record: JSON.stringify(record),
        changed: change.changed ? JSON.stringify(change.changed) : null,
        row_scope: scopeColumn && stored[scopeColumn] != null ? Number(stored[scopeColumn]) : null,
        user_id: author.userId,
        request_id: author.requestId,
        created_at: now,
      });
    }
    return rows;
  };
  return {
    dependents: dependentsTracker(registry, knex),
    async record(trx, changes, author) {
      const statements = transactionStatements(trx, false);
      // On MySQL/MariaDB a plain read inside the transaction shows its snapshot: a record this unit
      // names but did not write (an order's moves already canceled) could show a state that another
      // write committed over since, and its change would then undo that one in a consumer's copy.
      // A locking read shows the newest committed state and holds it until this unit commits, so a
      // later writer of the record waits and records its change after this one.
      const lock = sharedLockSuffix(trx);
      const reads = lock ? { all: (sql: string, params: readonly unknown[]) => statements.all(`${sql}${lock}`, params) } : statements;
      const rows = await rowsOf(reads, changes, author);
      for (let i = 0; i < rows.length; i += 500) await trx(CHANGE_LOG).insert(rows.slice(i, i + 500));
    },
    async recordWith(statements, changes, author) {
      for (const row of await rowsOf(statements, changes, author))
        await statements.insert(
          INSERT_CHANGE,
          CHANGE_COLUMNS.map((column) => row[column]),
        );
    },
  };
}

/**
 * One change per record and kind, in the order first added, naming every field the unit's writes
 * of it changed; and `updated`, the generic kind, only for a record the unit did nothing more
 * telling to (created, validated, deleted...).
 */
export function distinct(pending: readonly PendingChange[]): PendingChange[] {
  const told = new Set(pending.filter((change) => change.kind !== 'updated').map((change) => `${change.resource} ${change.id}`));
  const first = new Map<string, PendingChange>();
  const kept: PendingChange[] = [];
  for (const change of pending) {
    const record = `${change.resource} ${change.id}`;
    if (change.kind === 'updated' && told.has(record)) continue;
    const key = `${record} ${change.kind}`;
    const earlier = first.get(key);
    if (!earlier) {
      const copy = { ...change, ...(change.changed && { changed: [...change.changed] }) };
      first.set(key, copy);
      kept.push(copy);
    } else if (earlier.changed && change.changed) {
      for (const field of change.changed) if (!earlier.changed.includes(field)) earlier.changed.push(field);
    } else if (earlier.changed) {
      delete earlier.changed; // a later write that did not say what it changed: the fields are not known
    }
  }
  return kept;
}
