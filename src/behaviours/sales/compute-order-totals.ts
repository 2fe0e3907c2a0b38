// afterCreate/afterUpdate of a sales order: its lines' and its own amounts (accounts/order-totals.ts),
// and the unit prices after discount, without and with taxes.
import type { Hook } from '../../../engine/index.ts';
import { orderTotals } from '../accounts/order-totals.ts';
import { roundTo } from '../accounts/money.ts';
import { recomputeInvoicedQuantities } from './invoiced-quantities.ts';

export const computeOrderTotals: Hook = async ({ trx, record, records }) => {
  const order = record!;
  const totals = await orderTotals(trx, order, { lines: 'sales_order_lines', taxes: 'sales_order_line_taxes' }, (_line, amounts, quantity) => ({
    price_reduce_taxexcl: quantity === 0 ? 0 : roundTo(amounts.subtotal / quantity, 4),
    price_reduce_taxinc: quantity === 0 ? 0 : roundTo(amounts.total / quantity, 4),
  }));
  await records('sales/order-lines').updateEach(totals.updates);
  // Raw: the order's own sums, written by its own after-write rule (its change is the write's).
  await trx('sales_orders').where('id', order.id).update({ amount_untaxed: totals.untaxed, amount_tax: totals.tax, amount_total: totals.total });
  // A confirmed order changed (an up-sell): what is left to invoice follows.
  if (order.state === 'sale') await recomputeInvoicedQuantities(trx, [Number(order.id)]);
};
