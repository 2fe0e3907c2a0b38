// afterCreate/afterUpdate of a purchase order: its lines' and its own amounts (accounts/order-totals.ts),
// the totals also in the company currency (at the order's rate, with 4 decimals), and its planned
// date, when none was given, the latest of its lines'.
import type { Hook } from '../../../engine/index.ts';
import { orderTotals } from '../accounts/order-totals.ts';
import { roundTo } from '../accounts/money.ts';

export const computeOrderTotals: Hook = async ({ trx, record, records }) => {
  const order = record!;
  const rate = Number(order.currency_rate) || 0;
  const inCompanyCurrency = (amount: number) => (rate === 0 ? amount : roundTo(amount / rate, 4));
  const totals = await orderTotals(trx, order, { lines: 'purchases_order_lines', taxes: 'purchases_order_line_taxes' }, (_line, amounts) => ({
    price_total_cc: inCompanyCurrency(amounts.total),
  }));
  const planned = totals.lines.map((line) => line.planned_at && String(line.planned_at)).filter(Boolean);
  await records('purchases/purchase-order-lines').updateEach(totals.updates);
  // Raw: the order's own sums, written by its own after-write rule (its change is the write's).
  await trx('purchases_orders')
    .where('id', order.id)
    .update({
      untaxed_amount: totals.untaxed,
      tax_amount: totals.tax,
      total_amount: totals.total,
      total_cc_amount: inCompanyCurrency(totals.total),
      planned_at: order.planned_at ?? (planned.sort().pop() || null),
    });
};
