// beforeCreate/beforeUpdate of a purchase order: its currency rate. Its number, defaults and what a
// confirmed order no longer accepts are declared in resources/purchases/purchase-orders.yaml.
import type { Hook } from '../../../engine/index.ts';
import { ratesOn } from './currency-rates.ts';

export const prepareOrder: Hook = async ({ trx, values, record }) => {
  const current = (name: string) => (values[name] !== undefined ? values[name] : record?.[name]);
  if (!record || values.currency_id !== undefined || values.company_id !== undefined || values.ordered_at !== undefined) {
    const currencyId = Number(current('currency_id'));
    values.currency_rate = (await ratesOn(trx, Number(current('company_id')), [currencyId], String(current('ordered_at')))).get(currencyId);
  }
};
