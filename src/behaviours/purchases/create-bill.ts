// POST /purchases/purchase-orders/{id}/create-bill (beyond the original's API, which only its
// screens offer): a draft vendor bill of what was received and not billed yet — bills follow
// received quantities, as the original's do — at the order's prices, discounts and taxes, its
// lines linked to the order lines. Answers 201 with the bill.
import type { Action } from '../../../engine/index.ts';
import { draftDocumentOfOrder, type OrderSide } from '../accounts/moves/from-order.ts';
import { recomputePurchaseOrders } from './recompute-orders.ts';

const BILL: OrderSide = {
  resource: 'accounts/bills',
  moveType: 'in_invoice',
  lines: { table: 'purchases_order_lines', taxes: 'purchases_order_line_taxes', uomColumn: 'uom_id', link: 'purchase_order_line_id' },
  nothingLeft: 'There is nothing to bill: every line is billed, or waits for its receipt.',
  noJournal: 'No purchase journal is set up for the order\u2019s company.',
};

/** The body it declares (resources/purchases/purchase-orders.yaml), validated by the engine: the document's date, default today. */
interface DraftInput {
  invoice_date?: string | null;
}

export const createBill: Action<DraftInput> = async ({ trx, record: order, input, records }) => {
  await recomputePurchaseOrders(trx, [Number(order.id)]);
  const id = await draftDocumentOfOrder(trx, records, order, BILL, Number(order.partner_id), input.invoice_date, (common) => ({
    ...common,
    reference: order.partner_reference,
    partner_id: order.partner_id,
    commercial_partner_id: order.partner_id,
    partner_shipping_id: order.partner_id,
    purchase_order_id: order.id,
  }));
  await recomputePurchaseOrders(trx, [Number(order.id)]);
  return { id, resource: 'accounts/bills' };
};
