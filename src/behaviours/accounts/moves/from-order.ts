// A draft document made from an order (an invoice from a sales order, a bill from a purchase
// order): the header the order gives, and its lines, which keep their taxes and point at their
// order lines. It is created through the engine as a POST of the document would be (its
// validation, defaults, hooks, number of statements whatever the lines), as a system write: the
// links to the order are fields no client sends.
import type { Knex } from 'knex';
import { ActionRefusedError, todayFor, type Records } from '../../../../engine/index.ts';
import { type DocumentType, fittingJournal, KINDS } from './kinds.ts';

type Row = Record<string, any>;

/** How one kind of order (sales, purchase) becomes a document: where its lines are, and what it says when it cannot. */
export interface OrderSide {
  /** The document's resource (accounts/invoices) and its move type. */
  resource: string;
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
  records: Records,
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
  const day = date ?? (await todayFor(trx, order.company_id));
  const common = {
    journal_id: journal.id,
    company_id: order.company_id,
    move_type: side.moveType,
    invoice_origin: order.name,
    invoice_partner_display_name: partner?.name ?? null,
    date: day,
    invoice_date: day,
    // Without a payment term the document is due on its date (the document's rule: one or the other).
    invoice_date_due: order.payment_term_id ? null : day,
    currency_id: order.currency_id,
    invoice_payment_term_id: order.payment_term_id,
    fiscal_position_id: order.fiscal_position_id,
    invoice_user_id: order.user_id,
  };
  return records(side.resource).create(
    {
      ...header(common),
      invoice_lines: lines.map((line) => ({
        product_id: line.product_id,
        uom_id: line[side.lines.uomColumn],
        quantity: Number(line.qty_to_invoice),
        price_unit: Number(line.price_unit),
        discount: Number(line.discount),
        taxes: taxIds.get(Number(line.id)) ?? [],
        [side.lines.link]: line.id,
      })),
    },
    { system: true },
  );
}
