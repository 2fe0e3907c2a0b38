// beforeCreate/beforeUpdate of a sales order: the price list's currency, the currency's rate at the
// order date, its access token, and the rule that lines without a price need a price list (its
// number: `sequence` in resources/sales/orders.yaml).
import { randomBytes } from 'node:crypto';
import { ValidationError, type Hook } from '../../../engine/index.ts';
import { rateOn } from '../support/currency-rates.ts';

export const prepareOrder: Hook = async ({ trx, values, record }) => {
  const creating = record === undefined;
  const priceListId = (values.price_list_id ?? record?.price_list_id ?? null) as number | null;
  requirePricesWithoutPriceList(values.lines as Array<{ values: Record<string, unknown>; id?: number }> | undefined, priceListId);

  if (priceListId !== null && values.price_list_id !== undefined) {
    const priceList = await trx('sales_price_lists').where('id', priceListId).first('currency_id');
    values.currency_id = priceList.currency_id; // the price list decides the currency
  }
  const current = (name: string) => (values[name] !== undefined ? values[name] : record?.[name]);
  if (creating || values.currency_id !== undefined || values.company_id !== undefined || values.date_order !== undefined) {
    // The rate the lines' prices are converted at (prepare-order-line.ts), as every document takes it.
    values.currency_rate = await rateOn(trx, Number(current('company_id')), Number(current('currency_id')), current('date_order'));
  }
  if (!creating) return;
  // The company, currency, salesperson, team, warehouse and invoicing and shipping partners default
  // as resources/sales/orders.yaml says.
  values.access_token = randomBytes(16).toString('hex');
};

function requirePricesWithoutPriceList(lines: Array<{ values: Record<string, unknown>; id?: number }> | undefined, priceListId: number | null) {
  if (!lines || priceListId !== null) return;
  const errors: Record<string, string[]> = {};
  lines.forEach((line, index) => {
    if (line.id === undefined && (line.values.price_unit === undefined || line.values.price_unit === null)) {
      errors[`lines.${index}.price_unit`] = [`The lines.${index}.price unit field is required when price list id is not present.`];
    }
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}
