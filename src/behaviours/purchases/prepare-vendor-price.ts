// beforeCreate/beforeUpdate of a vendor price list: the discounted price (the dates, the product's
// check and the company's default are declared in resources/purchases/vendor-price-lists.yaml).
import type { Hook } from '../../../engine/index.ts';
import { roundTo } from '../accounts/money.ts';

export const prepareVendorPrice: Hook = ({ values, record }) => {
  const current = (name: string) => (values[name] !== undefined ? values[name] : record?.[name]);
  if (values.price !== undefined || values.discount !== undefined) {
    values.price_discounted = roundTo(Number(current('price') ?? 0) * (1 - Number(current('discount') ?? 0) / 100), 4);
  }
};
