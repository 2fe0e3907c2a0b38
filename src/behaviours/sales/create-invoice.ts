// POST /sales/orders/{id}/create-invoice (beyond the original's API, which only its screens offer):
// a draft customer invoice of what the order has left to invoice — each line's ordered or
// delivered quantity by its product's policy, less what earlier invoices took — at the order's
// prices, discounts and taxes, its lines linked to the order lines. Answers 201 with the invoice.
import type { Action } from '../../../engine/index.ts';
import { draftDocumentOfOrder, type OrderSide } from '../accounts/moves/from-order.ts';
import { recomputeInvoicedQuantities } from './invoiced-quantities.ts';

const INVOICE: OrderSide = {
  resource: 'accounts/invoices',
  moveType: 'out_invoice',
  lines: { table: 'sales_order_lines', taxes: 'sales_order_line_taxes', uomColumn: 'product_uom_id', link: 'sale_order_line_id' },
  nothingLeft: 'There is nothing to invoice: every line is invoiced, or waits for its delivery.',
  noJournal: 'No sale journal is set up for the order\u2019s company.',
};

/** The body it declares (resources/sales/orders.yaml), validated by the engine: the document's date, default today. */
interface DraftInput {
  invoice_date?: string | null;
}

export const createInvoice: Action<DraftInput> = async ({ trx, record: order, input, records }) => {
  // What is left to invoice, as of now.
  await recomputeInvoicedQuantities(trx, [Number(order.id)]);
  const invoiced = Number(order.partner_invoice_id ?? order.partner_id);
  const id = await draftDocumentOfOrder(trx, records, order, INVOICE, invoiced, input.invoice_date, (common) => ({
    ...common,
    reference: order.client_order_ref,
    partner_id: invoiced,
    commercial_partner_id: invoiced,
    partner_shipping_id: order.partner_shipping_id ?? order.partner_id,
    sale_order_id: order.id,
    campaign_id: order.campaign_id,
    source_id: order.utm_source_id,
    medium_id: order.medium_id,
  }));
  await recomputeInvoicedQuantities(trx, [Number(order.id)]);
  return { id: Number(id), resource: 'accounts/invoices' };
};
