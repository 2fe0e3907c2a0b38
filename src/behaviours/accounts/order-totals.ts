// What sales and purchase orders share after each create and update: every line's subtotal, tax
// and total from its quantity, unit price, discount and taxes, and the order's sums, by the tax
// computation invoices use (compute-taxes.ts: the currency's rounding step, the company's rounding
// mode, group taxes, cascades, repartition), so that an order and its invoice have the same totals.
// The lines are read in a fixed number of statements, however many there are; only lines whose
// values change are to be written (and go to the change feed).
import type { Knex } from 'knex';
import { ValidationError } from '../../../engine/index.ts';
import { computeDocument, type LineAmounts } from './compute-taxes.ts';
import { roundingOf, taxesOfLines } from './tax-rules.ts';

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
  const rounding = await roundingOf(trx, order.company_id, Number(order.currency_id));
  const lines: Row[] = await trx(tables.lines).where('order_id', order.id).orderBy('id');
  const taxes = await taxesOfLines(
    trx,
    tables.taxes,
    'order_line_id',
    lines.map((line) => Number(line.id)),
  );
  const document = computeDocument(
    lines.map((line) => ({
      key: line,
      priceUnit: Number(line.price_unit),
      quantity: Number(line.product_qty),
      discount: Number(line.discount ?? 0),
      taxes: taxes.get(Number(line.id)) ?? [],
    })),
    rounding,
  );

  const updates: Array<{ id: number; values: Record<string, number> }> = [];
  for (const [index, { key: line, ...amounts }] of document.lines.entries()) {
    // Every value is within its own limit, but a product of them may not be: refused, never stored differently.
    if (![amounts.subtotal, amounts.tax, amounts.total].every((amount) => Math.abs(amount) <= MAX_AMOUNT)) {
      throw new ValidationError({
        [`lines.${index}`]: [`The lines.${index} total (${amounts.total}) is more than an amount can hold (${MAX_AMOUNT}): lower its quantity or unit price.`],
      });
    }
    const quantity = Number(line.product_qty);
    const values = { price_subtotal: amounts.subtotal, price_tax: amounts.tax, price_total: amounts.total, ...more(line, amounts, quantity) };
    if (Object.entries(values).some(([column, value]) => line[column] === null || Number(line[column]) !== value)) updates.push({ id: Number(line.id), values });
  }
  if (Math.abs(document.total) > MAX_AMOUNT)
    throw new ValidationError({ lines: [`The order total (${document.total}) is more than an amount can hold (${MAX_AMOUNT}): split the order.`] });
  return { lines, updates, untaxed: document.untaxed, tax: document.tax, total: document.total };
}
