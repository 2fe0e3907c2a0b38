// A sales order's invoicing follows its invoices and credit notes (reference-o2c-p2p §4.3), as its
// delivered quantities follow its deliveries. Per line: what was invoiced (credit notes count
// against it; cancelled documents do not count, drafts do), what is left to invoice by the
// product's policy — ordered quantity (`order`) or delivered quantity (`delivery`, the default for
// goods) — and the line's status; then the order's status, as Odoo decides it (the original calls
// an order invoiced as soon as one line is; here every line must be).
import type { Knex } from 'knex';
import { roundTo } from '../accounts/money.ts';
import { recordsOf } from '../../../engine/index.ts';

type Row = Record<string, any>;

/** The product's invoice policy, or what its kind usually has: services by order, goods by delivery. */
export function invoicePolicy(product: Row | undefined): 'order' | 'delivery' {
  if (product?.invoice_policy === 'order' || product?.invoice_policy === 'delivery') return product.invoice_policy;
  return product?.type === 'service' ? 'order' : 'delivery';
}

export async function recomputeInvoicedQuantities(trx: Knex.Transaction, orderIds: number[]): Promise<void> {
  if (orderIds.length === 0) return;
  const orders: Row[] = await trx('sales_orders').whereIn('id', orderIds).select('id', 'state');
  const lines: Row[] = await trx('sales_order_lines')
    .leftJoin('products_products', 'products_products.id', 'sales_order_lines.product_id')
    .whereIn('sales_order_lines.order_id', orderIds)
    .select('sales_order_lines.*', 'products_products.invoice_policy', 'products_products.type as product_type');
  const invoiced: Row[] =
    lines.length === 0
      ? []
      : await trx('accounts_account_move_lines as l')
          .join('accounts_account_moves as m', 'm.id', 'l.move_id')
          .whereIn(
            'l.sale_order_line_id',
            lines.map((line) => line.id),
          )
          .where('l.display_type', 'product')
          .whereIn('m.move_type', ['out_invoice', 'out_refund'])
          .whereNot('m.state', 'cancel')
          .select('l.sale_order_line_id', 'l.quantity', 'l.price_subtotal', 'm.move_type', 'm.state');
  const byLine = new Map<number, { quantity: number; amount: number }>();
  for (const row of invoiced) {
    const sign = row.move_type === 'out_refund' ? -1 : 1;
    const sum = byLine.get(Number(row.sale_order_line_id)) ?? { quantity: 0, amount: 0 };
    sum.quantity += sign * Number(row.quantity);
    // Amounts count once the document is posted.
    if (row.state === 'posted') sum.amount += sign * Number(row.price_subtotal);
    byLine.set(Number(row.sale_order_line_id), sum);
  }

  const stateOf = new Map(orders.map((order) => [Number(order.id), order.state]));
  const updates: Array<{ id: number; values: Row }> = [];
  const statuses = new Map<number, string[]>();
  for (const line of lines) {
    const sale = stateOf.get(Number(line.order_id)) === 'sale' && !line.display_type;
    const ordered = Number(line.product_uom_qty);
    const delivered = Number(line.qty_delivered);
    const policy = invoicePolicy({ invoice_policy: line.invoice_policy, type: line.product_type });
    const sum = byLine.get(Number(line.id)) ?? { quantity: 0, amount: 0 };
    const qtyInvoiced = roundTo(sum.quantity, 4);
    const qtyToInvoice = sale ? roundTo((policy === 'order' ? ordered : delivered) - qtyInvoiced, 4) : 0;
    let status = 'no';
    if (sale) {
      if (qtyInvoiced >= ordered && ordered > 0) status = 'invoiced';
      else if (qtyToInvoice !== 0) status = 'to_invoice';
      else if (policy === 'order' && delivered > ordered) status = 'up_selling';
      else if (policy === 'delivery' && delivered === ordered && ordered > 0) status = 'to_invoice';
    }
    const unit = Number(line.price_unit) * (1 - Number(line.discount) / 100);
    const amountInvoiced = roundTo(sum.amount, 4);
    updates.push({
      id: Number(line.id),
      values: {
        qty_invoiced: qtyInvoiced,
        qty_to_invoice: qtyToInvoice,
        invoice_status: status,
        untaxed_amount_invoiced: amountInvoiced,
        untaxed_amount_to_invoice: sale ? roundTo(unit * (policy === 'order' ? ordered : delivered) - amountInvoiced, 4) : 0,
      },
    });
    statuses.set(Number(line.order_id), [...(statuses.get(Number(line.order_id)) ?? []), status]);
  }
  const records = recordsOf(trx);
  await records('sales/order-lines').updateEach(updates);
  const orderUpdates = orders.map((order) => {
    const lineStatuses = statuses.get(Number(order.id)) ?? [];
    let status = 'no';
    if (order.state === 'sale' && lineStatuses.length > 0) {
      if (lineStatuses.includes('to_invoice')) status = 'to_invoice';
      else if (lineStatuses.every((s) => s === 'invoiced')) status = 'invoiced';
      else if (lineStatuses.every((s) => s === 'invoiced' || s === 'up_selling')) status = 'up_selling';
    }
    return { id: Number(order.id), values: { invoice_status: status } };
  });
  await records('sales/orders').updateEach(orderUpdates);
}
