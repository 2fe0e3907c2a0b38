// What follows from a purchase order's receipts (and, once they exist, its bills), worked out
// again after every action on the order and every receipt validated, canceled or returned:
// - each line's qty_received (done receipt moves, less returns), qty_invoiced
//   (billed-quantities.ts) and qty_to_invoice (received − billed, as the original bills); its state
//   is its order's copy (`related`), which the engine keeps;
// - the order's receipt_status: no (no receipt, or all canceled), full (all done or canceled),
//   partial (some done), pending; invoice_status: no unless purchased; to_invoiced (the
//   original's spelling) when a line has something to bill; invoiced when all is billed and a
//   bill exists; effective_date: when the first receipt was done.
// A fixed number of statements whatever the number of lines; only changed rows are written, and
// reported to the change feed.
import type { Knex } from 'knex';
import { recordsOf } from '../../../engine/index.ts';
import { qty } from '../inventories/stock/ledger.ts';
import { billedQuantities, ordersWithBills } from './billed-quantities.ts';

const PURCHASED = ['purchase', 'done'];

export async function recomputePurchaseOrders(trx: Knex.Transaction, orderIds: readonly number[]): Promise<void> {
  const ids = [...new Set(orderIds.map(Number))];
  if (ids.length === 0) return;
  const orders = await trx('purchases_orders').whereIn('id', ids).select('id', 'state', 'invoice_status', 'receipt_status', 'effective_date');
  const lines = await trx('purchases_order_lines')
    .leftJoin('products_products', 'products_products.id', 'purchases_order_lines.product_id')
    .whereIn('purchases_order_lines.order_id', ids)
    .select(
      'purchases_order_lines.id',
      'purchases_order_lines.order_id',
      'purchases_order_lines.product_qty',
      'purchases_order_lines.qty_received',
      'purchases_order_lines.qty_invoiced',
      'purchases_order_lines.qty_to_invoice',
      'products_products.purchase_method',
      'products_products.type as product_type',
    );
  const lineIds = lines.map((line) => Number(line.id));
  const received = await receivedQuantities(trx, lineIds);
  const billed = await billedQuantities(trx, lineIds);
  const operations = await trx('inventories_operations').whereIn('purchase_order_id', ids).select('purchase_order_id', 'state', 'closed_at');
  const withBills = await ordersWithBills(trx, ids);

  const stateOf = new Map(orders.map((order) => [Number(order.id), String(order.state)]));
  const toBill = new Set<number>();
  const lineUpdates: Array<{ id: number; values: Record<string, unknown> }> = [];
  for (const line of lines) {
    const state = stateOf.get(Number(line.order_id))!;
    // Billed on what was ordered or what was received, by the product's control policy; only a
    // confirmed order has anything to bill.
    const billable = purchaseMethod(line) === 'purchase' ? Number(line.product_qty) : (received.get(Number(line.id)) ?? 0);
    const values = {
      qty_received: received.get(Number(line.id)) ?? 0,
      qty_invoiced: billed.get(Number(line.id)) ?? 0,
      qty_to_invoice: PURCHASED.includes(state) ? qty(billable - (billed.get(Number(line.id)) ?? 0)) : 0,
    };
    if (Math.abs(values.qty_to_invoice) >= 0.0001) toBill.add(Number(line.order_id));
    if ((['qty_received', 'qty_invoiced', 'qty_to_invoice'] as const).some((column) => qty(line[column]) !== values[column])) {
      lineUpdates.push({ id: Number(line.id), values });
    }
  }

  const orderUpdates: Array<{ id: number; values: Record<string, unknown> }> = [];
  for (const order of orders) {
    const own = operations.filter((operation) => Number(operation.purchase_order_id) === Number(order.id));
    const doneAt = own
      .filter((operation) => operation.state === 'done' && operation.closed_at)
      .map((operation) => String(operation.closed_at))
      .sort()[0];
    const values = {
      receipt_status: receiptStatus(own.map((operation) => String(operation.state))),
      invoice_status: invoiceStatus(String(order.state), toBill.has(Number(order.id)), withBills.has(Number(order.id))),
      effective_date: doneAt ?? null,
    };
    if (values.receipt_status !== order.receipt_status || values.invoice_status !== order.invoice_status || (values.effective_date ?? null) !== (order.effective_date ?? null)) {
      orderUpdates.push({ id: Number(order.id), values });
    }
  }

  const records = recordsOf(trx);
  await records('purchases/purchase-order-lines').updateEach(lineUpdates);
  await records('purchases/purchase-orders').updateEach(orderUpdates);
}

/** The orders an operation receives (or returns) goods for: recomputed once it moved on. */
export async function recomputeOrdersOfOperation(trx: Knex.Transaction, operation: { purchase_order_id?: unknown }): Promise<void> {
  if (operation.purchase_order_id != null) await recomputePurchaseOrders(trx, [Number(operation.purchase_order_id)]);
}

export function receiptStatus(operationStates: readonly string[]): string {
  const live = operationStates.filter((state) => state !== 'cancel');
  if (live.length === 0) return 'no';
  if (live.every((state) => state === 'done')) return 'full';
  if (live.some((state) => state === 'done')) return 'partial';
  return 'pending';
}

/** The product's control policy, or what its kind usually has: goods billed on receipt, the rest on order. */
export function purchaseMethod(product: { purchase_method?: string | null; product_type?: string | null }): 'purchase' | 'receive' {
  if (product.purchase_method === 'purchase' || product.purchase_method === 'receive') return product.purchase_method;
  return product.product_type === 'goods' ? 'receive' : 'purchase';
}

export function invoiceStatus(orderState: string, somethingToBill: boolean, hasBills: boolean): string {
  if (!PURCHASED.includes(orderState)) return 'no';
  if (somethingToBill) return 'to_invoiced';
  return hasBills ? 'invoiced' : 'no';
}

/**
 * Line id → quantity received: its done moves (in the move's unit, which is the line's), less
 * those that sent goods back (returns). One statement for all the lines.
 */
async function receivedQuantities(trx: Knex.Transaction, lineIds: readonly number[]): Promise<Map<number, number>> {
  if (lineIds.length === 0) return new Map();
  const rows = await trx('inventories_moves')
    .whereIn('purchase_order_line_id', lineIds)
    .where('state', 'done')
    .groupBy('purchase_order_line_id')
    .select('purchase_order_line_id')
    .select(trx.raw('SUM(CASE WHEN `origin_returned_move_id` IS NULL THEN `quantity` ELSE -`quantity` END) AS `received`'));
  return new Map(rows.map((row: any) => [Number(row.purchase_order_line_id), qty(row.received)]));
}
