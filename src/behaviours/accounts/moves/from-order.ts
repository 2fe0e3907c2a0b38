// A draft document made from an order (an invoice from a sales order, a bill from a purchase
// order): the header the order gives, and its lines, which take their label and account as lines
// sent to /accounts/invoices do, keep their taxes and point at their order lines. A fixed number
// of statements, however many lines.
import type { Knex } from 'knex';
import { nowTimestamp, type HookContext } from '../../../../engine/index.ts';
import { recomputeMove } from './compute-move.ts';
import { prepareInvoiceLines } from './prepare-invoice-lines.ts';

type Row = Record<string, any>;

export interface OrderLineToBill {
  product_id: number;
  uom_id: number | null;
  quantity: number;
  price_unit: number;
  discount: number;
  taxIds: number[];
  /** The order line it comes from: { sale_order_line_id } or { purchase_order_line_id }. */
  link: Record<string, number>;
}

/** Inserts the document (`header`: its columns) and its lines, computes it, and returns its id. */
export async function draftFromOrder(trx: Knex.Transaction, userId: number, header: Row, lines: OrderLineToBill[]): Promise<number> {
  const now = nowTimestamp();
  const sort = Number((await trx('accounts_account_moves').max({ highest: 'sort' }).first())?.highest ?? 0) + 1;
  const [id] = await trx('accounts_account_moves').insert({
    sort,
    state: 'draft',
    payment_state: 'not_paid',
    ...header,
    creator_id: userId,
    created_at: now,
    updated_at: now,
  });
  const entries = lines.map((line, index) => ({
    trx,
    index,
    values: {
      move_id: id,
      product_id: line.product_id,
      uom_id: line.uom_id,
      quantity: line.quantity,
      price_unit: line.price_unit,
      discount: line.discount,
      ...line.link,
    } as Row,
  }));
  await prepareInvoiceLines(entries as unknown as HookContext[]);
  await trx('accounts_account_move_lines').insert(entries.map(({ values }) => ({ ...values, display_type: 'product', creator_id: userId, created_at: now, updated_at: now })));
  // Inserted in the lines' order, so their ids follow it.
  const ids = await trx('accounts_account_move_lines').where({ move_id: id, display_type: 'product' }).orderBy('id').pluck('id');
  const taxes = lines.flatMap((line, index) => line.taxIds.map((tax_id) => ({ move_line_id: ids[index], tax_id })));
  if (taxes.length > 0) await trx('accounts_accounts_move_line_taxes').insert(taxes);
  await recomputeMove(trx, Number(id));
  return Number(id);
}
