// What bills say about purchase orders: the quantities billed per order line (vendor refunds count
// against them; cancelled documents do not count, drafts do), and which orders have bills.
import type { Knex } from 'knex';

const PURCHASE_DOCUMENTS = ['in_invoice', 'in_refund'];

/** Purchase order line id → quantity billed, in the line's unit (bills are made in it). */
export async function billedQuantities(trx: Knex.Transaction, lineIds: readonly number[]): Promise<Map<number, number>> {
  const billed = new Map<number, number>();
  if (lineIds.length === 0) return billed;
  const rows = await trx('accounts_account_move_lines as l')
    .join('accounts_account_moves as m', 'm.id', 'l.move_id')
    .whereIn('l.purchase_order_line_id', lineIds)
    .where('l.display_type', 'product')
    .whereIn('m.move_type', PURCHASE_DOCUMENTS)
    .whereNot('m.state', 'cancel')
    .select('l.purchase_order_line_id', 'l.quantity', 'm.move_type');
  for (const row of rows) {
    const line = Number(row.purchase_order_line_id);
    billed.set(line, (billed.get(line) ?? 0) + (row.move_type === 'in_refund' ? -1 : 1) * Number(row.quantity));
  }
  return billed;
}

/** The orders among these that have at least one bill or refund not cancelled (an order all billed is then `invoiced`). */
export async function ordersWithBills(trx: Knex.Transaction, orderIds: readonly number[]): Promise<Set<number>> {
  if (orderIds.length === 0) return new Set();
  const rows = await trx('accounts_account_moves')
    .whereIn('purchase_order_id', orderIds)
    .whereIn('move_type', PURCHASE_DOCUMENTS)
    .whereNot('state', 'cancel')
    .distinct('purchase_order_id');
  return new Set(rows.map((row) => Number(row.purchase_order_id)));
}

/** A bill of the order that is not cancelled (cancelling the order is refused then), if any. */
export async function openBillOf(trx: Knex.Transaction, orderId: number): Promise<string | undefined> {
  const bill = await trx('accounts_account_moves')
    .where('purchase_order_id', orderId)
    .where('move_type', 'in_invoice')
    .whereNot('state', 'cancel')
    .orderBy('id')
    .first('id', 'name');
  return bill ? (bill.name ?? `draft bill ${bill.id}`) : undefined;
}
