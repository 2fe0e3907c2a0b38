// The record writers of each unit's transaction (engine/routes/record-writer.ts), for helpers deep
// in a behaviour that are handed only the transaction (a recompute of an order's quantities).
import type { Records } from './types.ts';

const byTransaction = new WeakMap<object, Records>();

export function attachRecords(trx: object, records: Records): void {
  byTransaction.set(trx, records);
}

/** The writers of the unit this transaction belongs to. */
export function recordsOf(trx: object): Records {
  const records = byTransaction.get(trx);
  if (!records) throw new Error('This transaction is not a unit of writing of the engine: its writes would skip the engine.');
  return records;
}
