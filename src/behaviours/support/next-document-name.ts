// Gap-free document numbers (WH/IN/00001, S00001) from the `sequences` table.
// The increment runs inside the caller's transaction: concurrent writers queue on the row lock
// (InnoDB) or on SQLite's single writer, and a rolled-back document gives its number back.
import type { Knex } from 'knex';
import { nowTimestamp } from '../../../engine/index.ts';

export interface SequenceKey {
  /** e.g. `sales.order` or `inventories.operation_type.1`. */
  code: string;
  companyId: number | null;
  /** Used when the sequence does not exist yet. */
  prefix: string;
  padding: number;
}

export async function nextDocumentName(trx: Knex.Transaction, key: SequenceKey): Promise<string> {
  const row = (query: Knex.QueryBuilder) =>
    key.companyId === null ? query.where('code', key.code).whereNull('company_id') : query.where({ code: key.code, company_id: key.companyId });
  // UPDATE first: it takes the row's exclusive lock straight away, so concurrent writers queue
  // instead of deadlocking (an INSERT IGNORE on an existing key would take a shared lock first,
  // and two transactions upgrading their shared locks deadlock on InnoDB).
  let updated = await row(trx('sequences')).increment('next_number', 1);
  if (Number(updated) === 0) {
    const now = nowTimestamp();
    await trx('sequences')
      .insert({ code: key.code, company_id: key.companyId, prefix: key.prefix, padding: key.padding, next_number: 1, created_at: now, updated_at: now })
      .onConflict(['code', 'company_id'])
      .ignore();
    updated = await row(trx('sequences')).increment('next_number', 1);
  }
  // The read sees this transaction's own increment (also under MySQL's REPEATABLE READ).
  const sequence = await row(trx('sequences')).first('prefix', 'padding', 'next_number');
  return `${sequence.prefix ?? ''}${String(Number(sequence.next_number) - 1).padStart(Number(sequence.padding ?? 0), '0')}`;
}
