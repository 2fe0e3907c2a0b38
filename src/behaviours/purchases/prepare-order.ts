// beforeCreate/beforeUpdate of a purchase order: its currency rate, and what a confirmed order no
// longer accepts (its number, state, buyer and company are declared in
// resources/purchases/purchase-orders.yaml).
import { ActionRefusedError, type Hook } from '../../../engine/index.ts';
import { ratesOn } from './currency-rates.ts';

/** States in which the order's receipts exist: its lines and parties are what they were made from. */
export const RECEIVING_STATES = ['to_approve', 'purchase', 'done'];

export const prepareOrder: Hook = async ({ trx, values, record }) => {
  if (record && RECEIVING_STATES.includes(record.state)) refuseReceivingChanges(values, record);
  const current = (name: string) => (values[name] !== undefined ? values[name] : record?.[name]);
  if (!record || values.currency_id !== undefined || values.company_id !== undefined || values.ordered_at !== undefined) {
    const currencyId = Number(current('currency_id'));
    values.currency_rate = (await ratesOn(trx, Number(current('company_id')), [currencyId], String(current('ordered_at')))).get(currencyId);
  }
};

/**
 * The receipt was made from the lines, vendor and company: changing them would leave it moving
 * other goods than the order says (422, nothing written). Other fields may change.
 */
function refuseReceivingChanges(values: Record<string, any>, record: Record<string, any>): void {
  const changed = (name: string) => values[name] !== undefined && Number(values[name]) !== Number(record[name]);
  if (values.lines !== undefined || changed('partner_id') || changed('currency_id') || changed('company_id')) {
    throw new ActionRefusedError('The lines, vendor, currency and company of a confirmed purchase order cannot be changed. Cancel it and set it to draft first.');
  }
}
