// beforeCreate/beforeUpdate of a purchase order: its currency rate. Its number, defaults and what a
// confirmed order no longer accepts are declared in resources/purchases/purchase-orders.yaml.
import type { Hook } from '../../../engine/index.ts';
import { rateOn } from '../support/currency-rates.ts';

export const prepareOrder: Hook = async ({ trx, values, record }) => {
  const current = (name: string) => (values[name] !== undefined ? values[name] : record?.[name]);
  if (!record || values.currency_id !== undefined || values.company_id !== undefined || values.ordered_at !== undefined) {
    values.currency_rate = await rateOn(trx, Number(current('company_id')), Number(current('currency_id')), current('ordered_at'));
  }
};
