// A draft document made from an order (an invoice from a sales order, a bill from a purchase
// order): the header the order gives, and its lines, which take their label and account as lines
// sent to /accounts/invoices do, keep their taxes and point at their order lines. A fixed number
// of statements, however many lines.
import type { Knex } from 'knex';
import { ActionRefusedError, nowTimestamp, type HookContext } from '../../../../engine/index.ts';
import { recomputeMove } from './compute-move.ts';
import { type DocumentType, fittingJournal, KINDS } from './kinds.ts';
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

/** How one kind of order (sales, purchase) becomes a document: where its lines are, and what it says when it cannot. */
export interface OrderSide {
  moveType: DocumentType;
  /** The order lines' table, their taxes' pivot, the lines' unit column, and the document line's link to them. */
  lines: { table: string; taxes: string; uomColumn: string; link: 'sale_order_line_id' | 'purchase_order_line_id' };
  nothingLeft: string;
  noJournal: string;
}

/**
 * The draft document of what an order has left to invoice (its lines' qty_to_invoice, computed
 * by the caller), in the journal that fits its company, dated `date` (today when none): the
 * order-specific columns come from `header`, given the journal and the invoiced partner's name.
 */
export async function draftDocumentOfOrder(
  trx: Knex.Transaction,
  userId: number,
  order: Row,
  side: OrderSide,
  partnerId: number,
  date: string | null | undefined,
  header: (common: Row) => Row,
): Promise<number> {
  const lines = (await trx(side.lines.table).where('order_id', order.id).whereNull('display_type').orderBy('sort').orderBy('id')).filter((line) => Number(line.qty_to_invoice) > 0);
  if (lines.length === 0) throw new ActionRefusedError(side.nothingLeft);
  const journal = await fittingJournal(trx, KINDS[side.moveType], Number(order.company_id));
  if (!journal) throw new ActionRefusedError(side.noJournal);
  const partner = await trx('partners_partners').where('id', partnerId).first('id', 'name');
  const taxIds = new Map<number, number[]>();
  const taxes = await trx(side.lines.taxes).whereIn(
    'order_line_id',
    lines.map((line) => line.id),
  );
  for (const row of taxes) taxIds.set(Number(row.order_line_id), [...(taxIds.get(Number(row.order_line_id)) ?? []), row.tax_id]);
  const day = date ?? new Date().toISOString().slice(0, 10);
  const common = {
    journal_id: journal.id,
    company_id: order.company_id,
    move_type: side.moveType,
    invoice_origin: order.name,
    invoice_partner_display_name: partner?.name ?? null,
    date: day,
    invoice_date: day,
    currency_id: order.currency_id,
    invoice_payment_term_id: order.payment_term_id,
    fiscal_position_id: order.fiscal_position_id,
    invoice_user_id: order.user_id,
  };
  return draftFromOrder(
    trx,
    userId,
    header(common),
    lines.map((line) => ({
      product_id: line.product_id,
      uom_id: line[side.lines.uomColumn],
      quantity: Number(line.qty_to_invoice),
      price_unit: Number(line.price_unit),
      discount: Number(line.discount),
      taxIds: taxIds.get(Number(line.id)) ?? [],
      link: { [side.lines.link]: line.id },
    })),
  );
}

/** Inserts the document (`header`: its columns) and its lines, computes it, and returns its id. */
async function draftFromOrder(trx: Knex.Transaction, userId: number, header: Row, lines: OrderLineToBill[]): Promise<number> {
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
