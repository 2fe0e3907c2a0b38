// `reverse` (reference-o2c-p2p §2.11): drafts the credit note of an invoice (the refund of a bill)
// for all of it — same lines, taxes and amounts, pointing at the original. Confirming it settles
// what the original still owes (move-actions.ts). Answers 201 with the new document, created
// through the engine as a system write (its state, links and copied labels are no client's).
import { todayFor, type Action } from '../../../../engine/index.ts';
import { fittingJournal, KINDS, kindOf } from './kinds.ts';

/** What a line of the reversal keeps of the original's: its label and account too, as they were. */
const COPIED_LINE_COLUMNS = [
  'product_id',
  'uom_id',
  'name',
  'quantity',
  'price_unit',
  'discount',
  'account_id',
  'sale_order_line_id',
  'purchase_order_line_id',
  'company_currency_id',
];

/**
 * The body `reverse` declares (resources/accounts/invoices.yaml, bills.yaml), validated by the
 * engine (the journal exists). All three may be left out, as in Odoo's reversal (the original
 * requires them): no reason, the document's journal, today (the company's day).
 */
interface ReverseInput {
  reason?: string | null;
  journal_id?: number | null;
  date?: string | null;
}

export const reverseMove: Action<ReverseInput> = async ({ trx, record, input, records }) => {
  const date = input.date ?? (await todayFor(trx, record.company_id));
  const refundType = kindOf(record.move_type).reversedBy!;
  const refund = KINDS[refundType];
  // A journal of another kind is replaced by the company's first that fits, as the original does.
  const journal = (await fittingJournal(trx, refund, Number(record.company_id), input.journal_id ?? record.journal_id))!;
  const reference = input.reason ? `Reversal of: ${record.name}, ${input.reason}` : `Reversal of: ${record.name}`;
  const lines = await trx('accounts_account_move_lines').where({ move_id: record.id, display_type: 'product' }).orderBy('id');
  const taxes = new Map<number, number[]>();
  if (lines.length > 0) {
    const rows = await trx('accounts_accounts_move_line_taxes').whereIn(
      'move_line_id',
      lines.map((line) => line.id),
    );
    for (const row of rows) taxes.set(Number(row.move_line_id), [...(taxes.get(Number(row.move_line_id)) ?? []), Number(row.tax_id)]);
  }
  const id = await records(refund.resource).create(
    {
      journal_id: journal.id,
      company_id: record.company_id,
      reference: reference.length > 250 ? `${reference.slice(0, 247)}...` : reference,
      invoice_origin: record.invoice_origin,
      invoice_partner_display_name: record.invoice_partner_display_name,
      invoice_date: date,
      invoice_date_due: date,
      partner_id: record.partner_id,
      commercial_partner_id: record.commercial_partner_id,
      partner_shipping_id: record.partner_shipping_id,
      currency_id: record.currency_id,
      fiscal_position_id: record.fiscal_position_id,
      invoice_user_id: record.invoice_user_id,
      invoice_incoterm_id: record.invoice_incoterm_id,
      incoterm_location: record.incoterm_location,
      reversed_entry_id: record.id,
      sale_order_id: record.sale_order_id,
      purchase_order_id: record.purchase_order_id,
      invoice_lines: lines.map((line) => ({
        ...Object.fromEntries(COPIED_LINE_COLUMNS.map((column) => [column, line[column]])),
        // Decimals as numbers (MySQL reads them as strings), as a body sends them.
        quantity: Number(line.quantity),
        price_unit: Number(line.price_unit),
        discount: line.discount === null ? null : Number(line.discount),
        taxes: taxes.get(Number(line.id)) ?? [],
      })),
    },
    { system: true },
  );
  return { id, resource: refund.resource };
};
