import type { Hook } from '../../../engine/index.ts';

/** What a new payment term is due on until its due terms are edited: everything, at once. */
export const DEFAULT_DUE_TERM = { value: 'percent', value_amount: 100, delay_type: 'days_after', nb_days: 0, days_next_month: 10 } as const;

/**
 * afterCreate of a payment term: its first due term, 100 % after 0 days, as the original's model
 * adds it, created as a POST under the term would (the term is its parent: a system write). It
 * runs in the create's transaction, so a failure leaves neither row.
 */
export const addDefaultDueTerm: Hook = async ({ record, records }) => {
  await records('accounts/due-terms').create({ ...DEFAULT_DUE_TERM, payment_id: record!.id }, { system: true });
};
