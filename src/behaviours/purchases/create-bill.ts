// POST /purchases/purchase-orders/{id}/create-bill (beyond the original's API, which only its
// screens offer): a draft vendor bill of what was received and not billed yet — bills follow
// received quantities, as the original's do — at the order's prices, discounts and taxes, its
// lines linked to the order lines. Answers 201 with the bill.
import { ActionRefusedError, type Action } from '../../../engine/index.ts';
import { draftFromOrder } from '../accounts/moves/from-order.ts';
import { fittingJournal, KINDS } from '../accounts/moves/kinds.ts';
import { actionBody } from '../support/action-body.ts';
import { changedIds } from '../support/changed-rows.ts';
import { recomputePurchaseOrders } from './recompute-orders.ts';

export const createBill: Action = async ({ trx, record: order, body, user }) => {
  const input = actionBody(body, { invoice_date: { type: 'date' } });
  await recomputePurchaseOrders(trx, [Number(order.id)]);
  const lines = (await trx('purchases_order_lines').where('order_id', order.id).whereNull('display_type').orderBy('sort').orderBy('id')).filter(
    (line) => Number(line.qty_to_invoice) > 0,
  );
  if (lines.length === 0) throw new ActionRefusedError('There is nothing to bill: every line is billed, or waits for its receipt.');
  const journal = await fittingJournal(trx, KINDS.in_invoice, Number(order.company_id));
  if (!journal) throw new ActionRefusedError('No purchase journal is set up for the order\u2019s company.');
  const partner = await trx('partners_partners').where('id', order.partner_id).first('id', 'name');
  const date = input.invoice_date ?? new Date().toISOString().slice(0, 10);
  const taxes = await trx('purchases_order_line_taxes').whereIn(
    'order_line_id',
    lines.map((line) => line.id),
  );
  const id = await draftFromOrder(
    trx,
    user.id,
    {
      journal_id: journal.id,
      company_id: order.company_id,
      move_type: 'in_invoice',
      invoice_origin: order.name,
      reference: order.partner_reference,
      invoice_partner_display_name: partner?.name ?? null,
      date,
      invoice_date: date,
      // Without a payment term the bill is due on its date.
      invoice_date_due: order.payment_term_id ? null : date,
      invoice_payment_term_id: order.payment_term_id,
      partner_id: order.partner_id,
      commercial_partner_id: order.partner_id,
      partner_shipping_id: order.partner_id,
      currency_id: order.currency_id,
      fiscal_position_id: order.fiscal_position_id,
      invoice_user_id: order.user_id,
      purchase_order_id: order.id,
    },
    lines.map((line) => ({
      product_id: line.product_id,
      uom_id: line.uom_id,
      quantity: Number(line.qty_to_invoice),
      price_unit: Number(line.price_unit),
      discount: Number(line.discount),
      taxIds: taxes.filter((row) => Number(row.order_line_id) === Number(line.id)).map((row) => row.tax_id),
      link: { purchase_order_line_id: line.id },
    })),
  );
  await recomputePurchaseOrders(trx, [Number(order.id)]);
  changedIds(trx, 'accounts/bills', [id], 'created');
  return { id, resource: 'accounts/bills' };
};
