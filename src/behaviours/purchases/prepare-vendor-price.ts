// beforeCreate/beforeUpdate of a vendor price list: the dates of a request in order, and the
// discounted price (the product's check and the company's default are declared in
// resources/purchases/vendor-price-lists.yaml).
import { ValidationError, type Hook } from '../../../engine/index.ts';
import { roundTo } from '../accounts/money.ts';

export const prepareVendorPrice: Hook = ({ values, record }) => {
  const current = (name: string) => (values[name] !== undefined ? values[name] : record?.[name]);
  // As the original's rule: the two dates of one request (a date sent alone is not compared with the stored one).
  const startsAt = values.starts_at as string | null | undefined;
  const endsAt = values.ends_at as string | null | undefined;
  if (startsAt && endsAt && String(endsAt).slice(0, 10) < String(startsAt).slice(0, 10)) {
    throw new ValidationError({ ends_at: ['The ends at field must be a date after or equal to starts at.'] });
  }
  if (values.price !== undefined || values.discount !== undefined) {
    values.price_discounted = roundTo(Number(current('price') ?? 0) * (1 - Number(current('discount') ?? 0) / 100), 4);
  }
};
