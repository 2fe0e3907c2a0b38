// What sales and purchase orders share after each create and update: every line's subtotal, tax
// and total from its quantity, unit price, discount and taxes (the tax engine invoices use), at the
// currency's precision, then the order's sums. The lines are read in a fixed number of statements,
// however many there are; only lines whose values change are to be written (and go to the change feed).
import type { Knex } from 'knex';
import { ValidationError } from '../../../engine/index.ts';
import { computeLine, type LineAmounts, type TaxRule } from './compute-taxes.ts';
import { roundTo } from './money.ts';

type Row = Record<string, any>;

/** The largest amount the order, document and line amount columns store (decimal(15,4)). */
export const MAX_AMOUNT = 99999999999.9999;

/**
 * The order's lines (`tables.lines`, their taxes in `tables.taxes`) with their amounts, and what
 * `more` adds to each line's values: the lines to update, the order's untaxed amount, tax and
 * total. A line or an order beyond what an amount can hold is refused (422), never stored otherwise.
 */
export async function orderTotals(
  trx: Knex.Transaction,
  order: Row,
  tables: { lines: string; taxes: string },
  more: (line: Row, amounts: LineAmounts, quantity: number) => Record<string, number>,
) {
  const currency = await trx('currencies').where('id', order.currency_id).first('decimal_places');
  const precision = Number(currency?.decimal_places ?? 2);
  const lines: Row[] = await trx(tables.lines).where('order_id', order.id).orderBy('id');
  const taxRows: Row[] =
    lines.length === 0
      ? []
      : await trx(tables.taxes)
          .join('accounts_taxes', 'accounts_taxes.id', `${tables.taxes}.tax_id`)
          .whereIn(
            `${tables.taxes}.order_line_id`,
            lines.map((line) => line.id),
          )
          .select(`${tables.taxes}.order_line_id`, 'accounts_taxes.id', 'accounts_taxes.amount_type', 'accounts_taxes.amount', 'accounts_taxes.price_include');

  let untaxed = 0;
  let tax = 0;
  const updates: Array<{ id: number; values: Record<string, number> }> = [];
  for (const [index, line] of lines.entries()) {
    const taxes: TaxRule[] = taxRows
      .filter((row) => row.order_line_id === line.id)
      .map((row) => ({ id: Number(row.id), amountType: row.amount_type, amount: Number(row.amount), priceInclude: Boolean(Number(row.price_include)) }));
    const quantity = Number(line.product_qty);
    const amounts = computeLine({ priceUnit: Number(line.price_unit), quantity, discount: Number(line.discount), taxes, precision });
    // Every value is within its own limit, but a product of them may not be: refused, never stored differently.
    if (![amounts.subtotal, amounts.tax, amounts.total].every((amount) => Math.abs(amount) <= MAX_AMOUNT)) {
      throw new ValidationError({
        [`lines.${index}`]: [`The lines.${index} total (${amounts.total}) is more than an amount can hold (${MAX_AMOUNT}): lower its quantity or unit price.`],
      });
    }
    const values = { price_subtotal: amounts.subtotal, price_tax: amounts.tax, price_total: amounts.total, ...more(line, amounts, quantity) };
    if (Object.entries(values).some(([column, value]) => line[column] === null || Number(line[column]) !== value)) updates.push({ id: Number(line.id), values });
    untaxed += amounts.subtotal;
    tax += amounts.tax;
  }
  const total = roundTo(untaxed + tax, precision);
  if (Math.abs(total) > MAX_AMOUNT) throw new ValidationError({ lines: [`The order total (${total}) is more than an amount can hold (${MAX_AMOUNT}): split the order.`] });
  return { lines, updates, untaxed: roundTo(untaxed, precision), tax: roundTo(tax, precision), total };
}
