// Before a document is written (reference-o2c-p2p §2.6): only drafts can change; a due date or a
// payment term; records of the document's company; what it takes from its partner and dates.
import { ActionRefusedError, ValidationError, type Hook } from '../../../../engine/index.ts';
import { fittingJournal, kindOf } from './kinds.ts';
import { recomputeMove } from './compute-move.ts';

export const prepareMove: Hook = async ({ trx, def, values, record }) => {
  const noun = def.label.toLowerCase();
  if (record?.state === 'posted') throw new ActionRefusedError(`Cannot update a posted ${noun}.`);
  if (record?.state === 'cancel') throw new ActionRefusedError(`Cannot update a cancelled ${noun}: reset it to draft first.`);
  const kind = kindOf(String(values.move_type ?? record?.move_type ?? def.scope.move_type));
  const merged = (name: string) => (name in values ? values[name] : record?.[name]);

  if (!record || 'invoice_date_due' in values || 'invoice_payment_term_id' in values) {
    if (!merged('invoice_date_due') && !merged('invoice_payment_term_id')) {
      const message = 'Either invoice due date or payment term must be provided.';
      throw new ValidationError({ invoice_date_due: [message], invoice_payment_term_id: [message] });
    }
  }
  if (!record && values.company_id == null) values.company_id = (await trx('companies').orderBy('id').first('id'))?.id;
  const companyId = Number(merged('company_id'));
  // The journal given is of the document's kind (its field says so); none given, the company's first.
  if (!record && values.journal_id == null) {
    const journal = await fittingJournal(trx, kind, companyId);
    if (!journal) {
      const company = await trx('companies').where('id', companyId).first('name');
      throw new ActionRefusedError(
        `No journal could be found in company ${company?.name ?? companyId} for any of those types: ${kind.journalType}. Please set up a chart of accounts for this company first.`,
      );
    }
    values.journal_id = journal.id;
  }
  await assertSameCompany(trx, companyId, values);

  if (!record) {
    values.state = 'draft';
    values.payment_state = 'not_paid';
  }
  if (values.partner_id !== undefined) {
    const partner = await trx('partners_partners').where('id', values.partner_id).first('id', 'name', 'parent_id');
    values.commercial_partner_id = partner?.id ?? null;
    values.partner_shipping_id = partner?.id ?? null;
    values.invoice_partner_display_name = partner?.name ?? null;
  }
  // The accounting date: the document date, unless a bill or refund gives its own (then only a
  // new one without a date takes the document date).
  const ownDate = def.fields.get('date')?.writable;
  if (ownDate ? !record && values.date == null : values.invoice_date !== undefined) values.date = merged('invoice_date');
};

/** The journal, payment term and fiscal position must be the document's company's, or shared. */
async function assertSameCompany(trx: Parameters<Hook>[0]['trx'], companyId: number, values: Record<string, any>): Promise<void> {
  const checks: Array<[string, unknown]> = [
    ['accounts_journals', values.journal_id],
    ['accounts_payment_terms', values.invoice_payment_term_id],
    ['accounts_fiscal_positions', values.fiscal_position_id],
  ];
  const foreign: string[] = [];
  for (const [table, id] of checks) {
    if (id == null) continue;
    const row = await trx(table).where('id', id).first('name', 'company_id');
    if (row?.company_id != null && Number(row.company_id) !== companyId) foreign.push(row.name);
  }
  if (foreign.length > 0) throw new ActionRefusedError(`These records belong to a different company: ${foreign.join(', ')}. Change them or switch the company back.`);
}

/** After a draft is written: its journal items and totals. */
export const computeMove: Hook = async ({ trx, record }) => {
  await recomputeMove(trx, Number(record!.id));
};

/**
 * Only drafts can be deleted, and only drafts never confirmed: a confirmed document has its
 * number, and deleting it would leave a gap in the journal's numbering.
 */
export const guardMoveDelete: Hook = async ({ def, record }) => {
  const noun = def.label.toLowerCase();
  if (record!.state !== 'draft') throw new ActionRefusedError(`Cannot delete a posted or cancelled ${noun}.`);
  if (Number(record!.posted_before) || record!.name) {
    throw new ActionRefusedError(`Cannot delete the ${noun} ${record!.name}: it was confirmed before and its number would leave a gap. Cancel it instead.`);
  }
};
