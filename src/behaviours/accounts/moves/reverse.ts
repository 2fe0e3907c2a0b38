// `reverse` (reference-o2c-p2p §2.11): drafts the credit note of an invoice (the refund of a bill)
// for all of it — same lines, taxes and amounts, pointing at the original. Confirming it settles
// what the original still owes (move-actions.ts). Answers 201 with the new document.
import { nowTimestamp, type Action } from '../../../../engine/index.ts';
import { changedIds } from '../../support/changed-rows.ts';
import { recomputeMove } from './compute-move.ts';
import { fittingJournal, KINDS, kindOf } from './kinds.ts';

const COPIED_LINE_COLUMNS = ['product_id', 'uom_id', 'name', 'quantity', 'price_unit', 'discount', 'account_id', 'sale_order_line_id', 'purchase_order_line_id'];

/**
 * The body `reverse` declares (resources/accounts/invoices.yaml, bills.yaml), validated by the
 * engine (the journal exists). All three may be left out, as in Odoo's reversal (the original
 * requires them): no reason, the document's journal, today.
 */
interface ReverseInput {
  reason?: string | null;
  journal_id?: number | null;
  date?: string | null;
}

export const reverseMove: Action<ReverseInput> = async ({ trx, record, input, user }) => {
  const date = input.date ?? new Date().toISOString().slice(0, 10);
  const refundType = kindOf(record.move_type).reversedBy!;
  const refund = KINDS[refundType];
  // A journal of another kind is replaced by the company's first that fits, as the original does.
  const journal = (await fittingJournal(trx, refund, Number(record.company_id), input.journal_id ?? record.journal_id))!;
  const reference = input.reason ? `Reversal of: ${record.name}, ${input.reason}` : `Reversal of: ${record.name}`;
  const now = nowTimestamp();
  const sort = Number((await trx('accounts_account_moves').max({ highest: 'sort' }).first())?.highest ?? 0) + 1;
  const [id] = await trx('accounts_account_moves').insert({
    sort,
    journal_id: journal.id,
    company_id: record.company_id,
    move_type: refundType,
    state: 'draft',
    payment_state: 'not_paid',
    reference: reference.length > 250 ? `${reference.slice(0, 247)}...` : reference,
    invoice_origin: record.invoice_origin,
    invoice_partner_display_name: record.invoice_partner_display_name,
    date: date,
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
    creator_id: user.id,
    created_at: now,
    updated_at: now,
  });
  const lines = await trx('accounts_account_move_lines').where({ move_id: record.id, display_type: 'product' }).orderBy('id');
  if (lines.length > 0) {
    await trx('accounts_account_move_lines').insert(
      lines.map((line) => ({
        ...Object.fromEntries(COPIED_LINE_COLUMNS.map((column) => [column, line[column]])),
        sort: line.sort,
        move_id: id,
        display_type: 'product',
        parent_state: 'draft',
        journal_id: journal.id,
        company_id: record.company_id,
        company_currency_id: line.company_currency_id,
        currency_id: record.currency_id,
        partner_id: line.partner_id,
        date: date,
        invoice_date: date,
        creator_id: user.id,
        created_at: now,
        updated_at: now,
      })),
    );
    // The copies' taxes: the copies were inserted in the originals' order, so positions match.
    const copies = await trx('accounts_account_move_lines').where({ move_id: id, display_type: 'product' }).orderBy('id').pluck('id');
    const taxes = await trx('accounts_accounts_move_line_taxes').whereIn(
      'move_line_id',
      lines.map((line) => line.id),
    );
    const position = new Map(lines.map((line, index) => [Number(line.id), index]));
    if (taxes.length > 0) {
      await trx('accounts_accounts_move_line_taxes').insert(taxes.map((row) => ({ move_line_id: copies[position.get(Number(row.move_line_id))!], tax_id: row.tax_id })));
    }
  }
  await recomputeMove(trx, Number(id));
  changedIds(trx, refund.resource, [id], 'created');
  return { id: Number(id), resource: refund.resource };
};
