// The workflow of invoices, credit notes, bills and refunds (reference-o2c-p2p §2.4, §2.5, §2.9):
// confirm, cancel and reset to draft (set as checked only sets a flag). The state each needs is
// declared with the action in resources/accounts/move.yaml; pay and reverse have files of their own.
import { ActionRefusedError, recordsOf, type Action } from '../../../../engine/index.ts';
import { recomputeMove } from './compute-move.ts';
import { kindOf } from './kinds.ts';
import { openLines, reconcile, refreshResiduals, unreconcile } from './reconcile.ts';
import { afterMoveStateChange } from './linked-orders.ts';

export const confirmMove: Action = async ({ trx, def, record, user, records }) => {
  const kind = kindOf(record.move_type);
  const noun = def.label.toLowerCase();
  if (!record.partner_id) {
    throw new ActionRefusedError(
      kind.journalType === 'sale'
        ? 'Please provide a valid Customer to proceed with the Customer Invoice validation.'
        : 'Please provide a valid Vendor to proceed with the Vendor Bill validation.',
    );
  }
  if (Number(record.amount_total) < 0) throw new ActionRefusedError(`${def.label} can not be confirmed with a negative total amount.`);
  const lines = await trx('accounts_account_move_lines')
    .leftJoin('accounts_accounts', 'accounts_accounts.id', 'accounts_account_move_lines.account_id')
    .where({ 'accounts_account_move_lines.move_id': record.id, 'accounts_account_move_lines.display_type': 'product' })
    .select('accounts_accounts.deprecated');
  if (lines.length === 0) throw new ActionRefusedError(`Please add at least one line to the ${noun}.`);
  if (lines.some((line) => Number(line.deprecated))) throw new ActionRefusedError(`One or more lines in this ${noun} are using deprecated accounts.`);

  // Its number, INV/2026/00001, was taken as the action began (`sequence` in resources/accounts/move.yaml).
  const name = String(record.name);
  await records(def.name).updateMany([record.id], { sequence_prefix: record.sequence_prefix ?? name.slice(0, name.lastIndexOf('/')), state: 'posted', posted_before: true });
  await recomputeMove(trx, Number(record.id));
  // How partners become customers and vendors (/accounts/customers, /accounts/vendors).
  await records('partners/partners').updateMany([record.commercial_partner_id ?? record.partner_id], { [kind.rank]: trx.raw('COALESCE(??, 0) + 1', [kind.rank]) });

  // A credit note or refund settles what the document it reverses still owes.
  if (record.reversed_entry_id) {
    const original = await trx('accounts_account_moves').where('id', record.reversed_entry_id).first('id', 'state');
    if (original?.state === 'posted') {
      await reconcile(trx, await openLines(trx, [Number(original.id)]), await openLines(trx, [Number(record.id)]), { companyId: Number(record.company_id), userId: user.id });
      await refreshResiduals(trx, [Number(original.id), Number(record.id)]);
    }
  }
  await afterMoveStateChange(trx, [Number(record.id), ...(record.reversed_entry_id ? [Number(record.reversed_entry_id)] : [])]);
};

export const cancelMove: Action = async ({ trx, def, record, records }) => {
  await records(def.name).updateMany([record.id], { state: 'cancel', payment_state: 'not_paid' });
  await records('accounts/journal-items').updateMany((lines) => lines.where('move_id', record.id), { parent_state: 'cancel' });
  await afterMoveStateChange(trx, [Number(record.id)]);
};

/**
 * Back to draft: the settlements of its lines are undone (payments stay posted, unmatched; the
 * document it reversed owes again), and its lines are computed anew. It keeps its number.
 */
export const resetMoveToDraft: Action = async ({ trx, def, record, records }) => {
  const others = await unreconcile(trx, [Number(record.id)]);
  await records(def.name).updateMany([record.id], { state: 'draft', payment_state: 'not_paid' });
  await recomputeMove(trx, Number(record.id));
  await refreshResiduals(trx, others);
  await markPaymentsMatched(trx, others);
  await afterMoveStateChange(trx, [Number(record.id), ...others]);
};

/** A payment is reconciled while its journal entry has nothing left to match. */
export async function markPaymentsMatched(trx: Parameters<Action>[0]['trx'], moveIds: number[]): Promise<void> {
  if (moveIds.length === 0) return;
  const entries = await trx('accounts_account_moves').whereIn('id', moveIds).where('move_type', 'entry').select('id', 'amount_residual');
  for (const matched of [true, false]) {
    const ids = entries.filter((entry) => (Number(entry.amount_residual) === 0) === matched).map((entry) => entry.id);
    if (ids.length > 0) await recordsOf(trx)('accounts/payments').updateMany((payments) => payments.whereIn('move_id', ids), { is_reconciled: matched });
  }
}
