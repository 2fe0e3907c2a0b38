// Before a document is written (reference-o2c-p2p §2.6): a due date or a payment term; a journal of its kind; its accounting date. (Its company, what it takes from its
// partner, and that its journal, payment term and fiscal position are of its company, are declared
// in resources/accounts/move.yaml, with the locks of posted and cancelled ones.)
import { ActionRefusedError, ValidationError, type Hook } from '../../../../engine/index.ts';
import { fittingJournal, kindOf } from './kinds.ts';
import { recomputeMove } from './compute-move.ts';

export const prepareMove: Hook = async ({ trx, def, values, record }) => {
  const kind = kindOf(String(values.move_type ?? record?.move_type ?? def.scope.move_type));
  const merged = (name: string) => (name in values ? values[name] : record?.[name]);

  if (!record || 'invoice_date_due' in values || 'invoice_payment_term_id' in values) {
    if (!merged('invoice_date_due') && !merged('invoice_payment_term_id')) {
      const message = 'Either invoice due date or payment term must be provided.';
      throw new ValidationError({ invoice_date_due: [message], invoice_payment_term_id: [message] });
    }
  }
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
  // The accounting date: the document date, unless a bill or refund gives its own (then only a
  // new one without a date takes the document date).
  const ownDate = def.fields.get('date')?.writable;
  if (ownDate ? !record && values.date == null : values.invoice_date !== undefined) values.date = merged('invoice_date');
};

/** After a draft is written: its journal items and totals. */
export const computeMove: Hook = async ({ trx, record }) => {
  await recomputeMove(trx, Number(record!.id));
};
