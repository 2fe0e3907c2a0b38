// beforeCreate/beforeUpdate of a vendor price list: a product variant rather than a configurable
// product, the dates of a request in order, the company (the one sent, else the product's) and the discounted price.
import { ValidationError, type Hook } from '../../../engine/index.ts';
import { roundTo } from '../accounts/money.ts';
import { configurableProductMessage } from './configurable-products.ts';

export const prepareVendorPrice: Hook = async ({ trx, values, record }) => {
  const current = (name: string) => (values[name] !== undefined ? values[name] : record?.[name]);
  const errors: Record<string, string[]> = {};
  let product: Record<string, any> | undefined;
  if (values.product_id !== undefined) {
    product = await trx('products_products').where('id', values.product_id).first('name', 'is_configurable', 'company_id');
    if (product && Number(product.is_configurable)) errors.product_id = [configurableProductMessage(product.name, 'as a vendor price line')];
  }
  // As the original's rule: the two dates of one request (a date sent alone is not compared with the stored one).
  const startsAt = values.starts_at as string | null | undefined;
  const endsAt = values.ends_at as string | null | undefined;
  if (startsAt && endsAt && String(endsAt).slice(0, 10) < String(startsAt).slice(0, 10)) {
    errors.ends_at = ['The ends at field must be a date after or equal to starts at.'];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  // The company sent is kept (the original overwrote it); without one, the product's.
  if (!record && values.company_id === undefined) values.company_id = product?.company_id ?? null;
  if (values.price !== undefined || values.discount !== undefined) {
    values.price_discounted = roundTo(Number(current('price') ?? 0) * (1 - Number(current('discount') ?? 0) / 100), 4);
  }
};
