// What bills say about purchase orders. Bills (account moves of type in_invoice / in_refund)
// do not exist yet: every function here answers "nothing billed", and is the one place to
// complete when they do.
import type { Knex } from 'knex';

/**
 * Purchase order line id → quantity billed, in the line's unit: Σ over the bill lines of bills
 * not canceled (drafts count) of their quantity, + for in_invoice, − for in_refund.
 */
export async function billedQuantities(_trx: Knex.Transaction, _lineIds: readonly number[]): Promise<Map<number, number>> {
  // bills: added with the account moves
  return new Map();
}

/** The orders among these that have at least one linked bill (an order all billed is then `invoiced`). */
export async function ordersWithBills(_trx: Knex.Transaction, _orderIds: readonly number[]): Promise<Set<number>> {
  // bills: added with the account moves
  return new Set();
}

/** The name of a bill of the order that is not canceled (cancelling the order is refused then), if any. */
export async function openBillOf(_trx: Knex.Transaction, _orderId: number): Promise<string | undefined> {
  // bills: added with the account moves
  return undefined;
}
