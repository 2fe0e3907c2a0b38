// The record writers of each unit's transaction (./writers.ts), for helpers deep
// in a behaviour that are handed only the transaction (a recompute of an order's quantities).
import { perTransaction } from '../behaviours/per-transaction.ts';
import type { Records } from '../behaviours/types.ts';

const writers = perTransaction<Records>('This transaction is not a unit of writing of the engine: its writes would skip the engine.');

export const attachRecords = writers.attach;

/** The writers of the unit this transaction belongs to. */
export const recordsOf = writers.of;
