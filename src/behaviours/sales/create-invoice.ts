// POST /sales/orders/{id}/create-invoice (beyond the original's API, which only its screens offer):
// a draft customer invoice of what the order has left to invoice — each line's ordered or
// delivered quantity by its product's policy, less what earlier invoices took — at the order's
// prices, discounts and taxes, its lines linked to the order lines. Answers 201 with the invoice.
import { ActionRefusedError, type Action } from '../../../engine/index.ts';
import { draftFromOrder } from '../accounts/moves/from-order.ts';
import { fittingJournal, KINDS } from '../accounts/moves/kinds.ts';
import { actionBody } from '../support/action-body.ts';
import { changedIds } from '../support/changed-rows.ts';
import { recomputeInvoicedQuantities } from './invoiced-quantities.ts';

export const createInvoice: Action = async (context) => {
  const { trx, record: order, body, user } = context;
  const input = actionBody(body, { invoice_date: { type: 'date' } });
  // What is left to invoice, as of now.
  await recomputeInvoicedQuantities(trx, [Number(order.id)]);
  const lines = (await trx('sales_order_lines').where('order_id', order.id).whereNull('display_type').orderBy('sort').orderBy('id')).filter(
    (line) => Number(line.qty_to_invoice) > 0,
  );
  if (lines.length === 0) throw new ActionRefusedError('There is nothing to invoice: every line is invoiced, or waits for its delivery.');
  const kind = KINDS.out_invoice;
  const journal = await fittingJournal(trx, kind, Number(order.company_id));
  if (!journal) throw new ActionRefusedError('No sale journal is set up for the order\u2019s company.');
  const partner = await trx('partners_partners')
    .where('id', order.partner_invoice_id ?? order.partner_id)
    .first('id', 'name');
  const date = input.invoice_date ?? new Date().toISOString().slice(0, 10);
  const taxes = await trx('sales_order_line_taxes').whereIn(
    'order_line_id',
    lines.map((line) => line.id),
  );
  const id = await draftFromOrder(
    trx,
    user.id,
    {
      journal_id: journal.id,
      company_id: order.company_id,
      move_type: 'out_invoice',
      invoice_origin: order.name,
      reference: order.client_order_ref,
      invoice_partner_display_name: partner?.name ?? null,
      date,
      invoice_date: date,
      partner_id: partner?.id ?? order.partner_id,
      commercial_partner_id: partner?.id ?? order.partner_id,
      partner_shipping_id: order.partner_shipping_id ?? order.partner_id,
      currency_id: order.currency_id,
      invoice_payment_term_id: order.payment_term_id,
      fiscal_position_id: order.fiscal_position_id,
      invoice_user_id: order.user_id,
      sale_order_id: order.id,
      campaign_id: order.campaign_id,
      source_id: order.utm_source_id,
      medium_id: order.medium_id,
    },
    lines.map((line) => ({
      product_id: line.product_id,
      uom_id: line.product_uom_id,
      quantity: Number(line.qty_to_invoice),
      price_unit: Number(line.price_unit),
      discount: Number(line.discount),
      taxIds: taxes.filter((row) => Number(row.order_line_id) === Number(line.id)).map((row) => row.tax_id),
      link: { sale_order_line_id: line.id },
    })),
  );
  await recomputeInvoicedQuantities(trx, [Number(order.id)]);
  changedIds(trx, 'accounts/invoices', [id], 'created');
  return { id: Number(id), resource: 'accounts/invoices' };
};
