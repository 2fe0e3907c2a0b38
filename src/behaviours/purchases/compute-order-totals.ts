// afterCreate/afterUpdate of a purchase order: every line's subtotal, tax and total from its
// quantity, unit price, discount and taxes (the tax engine sales lines use), at the currency's
// precision and stored with 4 decimals, then the order's sums. The lines are read and written in
// a fixed number of statements, however many there are; only rows whose values change are written.
import { ValidationError, type Hook } from '../../../engine/index.ts';
import { computeLine, type TaxRule } from '../accounts/compute-taxes.ts';
import { roundTo } from '../accounts/money.ts';
import { MAX_AMOUNT } from '../sales/compute-order-totals.ts';

export const computeOrderTotals: Hook = async ({ trx, record, records }) => {
  const order = record as Record<string, any>;
  const currency = await trx('currencies').where('id', order.currency_id).first('decimal_places');
  const precision = Number(currency?.decimal_places ?? 2);
  const rate = Number(order.currency_rate) || 0;
  const inCompanyCurrency = (amount: number) => (rate === 0 ? amount : roundTo(amount / rate, 4));
  const lines = await trx('purchases_order_lines').where('order_id', order.id).orderBy('id');
  const taxRows =
    lines.length === 0
      ? []
      : await trx('purchases_order_line_taxes')
          .join('accounts_taxes', 'accounts_taxes.id', 'purchases_order_line_taxes.tax_id')
          .whereIn(
            'purchases_order_line_taxes.order_line_id',
            lines.map((line) => line.id),
          )
          .select('purchases_order_line_taxes.order_line_id', 'accounts_taxes.id', 'accounts_taxes.amount_type', 'accounts_taxes.amount', 'accounts_taxes.price_include');

  let untaxed = 0;
  let tax = 0;
  let latest: string | null = null;
  const updates: Array<{ id: number; values: Record<string, unknown> }> = [];
  for (const [index, line] of lines.entries()) {
    const taxes: TaxRule[] = taxRows
      .filter((row) => row.order_line_id === line.id)
      .map((row) => ({ id: Number(row.id), amountType: row.amount_type, amount: Number(row.amount), priceInclude: Boolean(Number(row.price_include)) }));
    const amounts = computeLine({ priceUnit: Number(line.price_unit), quantity: Number(line.product_qty), discount: Number(line.discount), taxes, precision });
    // Every value is within its own limit, but a product of them may not be: refused, never stored differently.
    if (![amounts.subtotal, amounts.tax, amounts.total].every((amount) => Math.abs(amount) <= MAX_AMOUNT)) {
      throw new ValidationError({
        [`lines.${index}`]: [`The lines.${index} total (${amounts.total}) is more than an amount can hold (${MAX_AMOUNT}): lower its quantity or unit price.`],
      });
    }
    const values = {
      price_subtotal: amounts.subtotal,
      price_tax: amounts.tax,
      price_total: amounts.total,
      price_total_cc: inCompanyCurrency(amounts.total),
    };
    if (Object.entries(values).some(([column, value]) => Number(line[column]) !== value)) updates.push({ id: Number(line.id), values });
    untaxed += amounts.subtotal;
    tax += amounts.tax;
    if (line.planned_at && (latest === null || String(line.planned_at) > latest)) latest = String(line.planned_at);
  }
  const total = roundTo(untaxed + tax, precision);
  if (Math.abs(total) > MAX_AMOUNT) {
    throw new ValidationError({ lines: [`The order total (${total}) is more than an amount can hold (${MAX_AMOUNT}): split the order.`] });
  }
  await records('purchases/purchase-order-lines').updateEach(updates);
  await trx('purchases_orders')
    .where('id', order.id)
    .update({
      untaxed_amount: roundTo(untaxed, precision),
      tax_amount: roundTo(tax, precision),
      total_amount: total,
      total_cc_amount: inCompanyCurrency(total),
      planned_at: order.planned_at ?? latest,
    });
};
