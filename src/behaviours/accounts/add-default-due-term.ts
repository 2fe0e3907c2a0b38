import { nowTimestamp, type Hook } from '../../../engine/index.ts';
import { changedIds } from '../support/changed-rows.ts';

/** What a new payment term is due on until its due terms are edited: everything, at once. */
export const DEFAULT_DUE_TERM = { value: 'percent', value_amount: 100, delay_type: 'days_after', nb_days: 0, days_next_month: 10 } as const;

/**
 * afterCreate of a payment term: its first due term, 100 % after 0 days, as the original's model
 * adds it. It runs in the create's transaction, so a failure leaves neither row.
 */
export const addDefaultDueTerm: Hook = async ({ trx, record, user }) => {
  const now = nowTimestamp();
  const [id] = await trx('accounts_payment_due_terms').insert({
    ...DEFAULT_DUE_TERM,
    payment_id: record!.id,
    creator_id: user.id,
    created_at: now,
    updated_at: now,
  });
  changedIds(trx, 'accounts/due-terms', [id], 'created');
};
