// afterCreate/afterUpdate of a sales order: every line's subtotal, tax and total from its
// quantity, unit price, discount and taxes, then the order's sums, at the currency's precision.
// The lines are read and written in a fixed number of statements, however many there are; only
// lines whose amounts change are written (and go to the change feed).
import { ValidationError, type Hook } from '../../../engine/index.ts';
import { computeLine, type TaxRule } from '../accounts/compute-taxes.ts';
import { roundTo } from '../accounts/money.ts';
import { recomputeInvoicedQuantities } from './invoiced-quantities.ts';

/** The largest amount the order and line amount columns store (decimal(15,4)). */
export const MAX_AMOUNT = 99999999999.9999;

export const computeOrderTotals: Hook = async ({ trx, record, records }) => {
  const order = record as Record<string, any>;
  const currency = await trx('currencies').where('id', order.currency_id).first('decimal_places');
  const precision = Number(currency?.decimal_places ?? 2);
  const lines = await trx('sales_order_lines').where('order_id', order.id).orderBy('id');
  const taxRows =
    lines.length === 0
      ? []
      : await trx('sales_order_line_taxes')
          .join('accounts_taxes', 'accounts_taxes.id', 'sales_order_line_taxes.tax_id')
          .whereIn(
            'sales_order_line_taxes.order_line_id',
            lines.map((line: any) => line.id),
          )
          .select('sales_order_line_taxes.order_line_id', 'accounts_taxes.id', 'accounts_taxes.amount_type', 'accounts_taxes.amount', 'accounts_taxes.price_include');

  let untaxed = 0;
  let tax = 0;
  const updates: Array<{ id: number; values: Record<string, number> }> = [];
  for (const [index, line] of lines.entries()) {
    const taxes: TaxRule[] = taxRows
      .filter((row: any) => row.order_line_id === line.id)
      .map((row: any) => ({ id: Number(row.id), amountType: row.amount_type, amount: Number(row.amount), priceInclude: Boolean(Number(row.price_include)) }));
    const quantity = Number(line.product_qty);
    const amounts = computeLine({ priceUnit: Number(line.price_unit), quantity, discount: Number(line.discount), taxes, precision });
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
      price_reduce_taxexcl: quantity === 0 ? 0 : roundTo(amounts.subtotal / quantity, 4),
      price_reduce_taxinc: quantity === 0 ? 0 : roundTo(amounts.total / quantity, 4),
    };
    if (Object.entries(values).some(([column, value]) => line[column] === null || Number(line[column]) !== value)) updates.push({ id: Number(line.id), values });
    untaxed += amounts.subtotal;
    tax += amounts.tax;
  }
  if (Math.abs(untaxed + tax) > MAX_AMOUNT) {
    throw new ValidationError({ lines: [`The order total (${roundTo(untaxed + tax, precision)}) is more than an amount can hold (${MAX_AMOUNT}): split the order.`] });
  }
  await records('sales/order-lines').updateEach(updates);
  await trx('sales_orders')
    .where('id', order.id)
    .update({
      amount_untaxed: roundTo(untaxed, precision),
      amount_tax: roundTo(tax, precision),
      amount_total: roundTo(untaxed + tax, precision),
    });
  // A confirmed order changed (an up-sell): what is left to invoice follows.
  if (order.state === 'sale') await recomputeInvoicedQuantities(trx, [Number(order.id)]);
};
