// Before the lines of a purchase order are written (all of them at once): its unit price from the
// vendor price lists when none was sent (its place in the order, what it copies of its order and
// what it takes from its product are declared in resources/purchases/purchase-order-lines.yaml).
// The order, the products, the price lists and the rates are read once for all the lines.
import type { BatchHook, HookContext } from '../../../engine/index.ts';
import { companyDayOf } from '../support/company-time-zone.ts';
import { bestVendorPrice, loadVendorPrices, orderCurrencyConverter, type VendorPriceQuery, type VendorPrice } from './vendor-pricing.ts';

export const prepareOrderLines: BatchHook = async (contexts) => {
  if (contexts.length === 0) return;
  const { trx } = contexts[0]!;
  const orderIdOf = ({ values, record }: HookContext) => Number(values.order_id ?? record?.order_id);
  const orders = new Map((await trx('purchases_orders').whereIn('id', [...new Set(contexts.map(orderIdOf))])).map((row) => [Number(row.id), row]));
  const productIds = contexts.map(({ values, record }) => Number(values.product_id ?? record?.product_id));
  const products = new Map(
    (
      await trx('products_products')
        .whereIn('id', [...new Set(productIds)])
        .select('id', 'cost')
    ).map((row) => [Number(row.id), row]),
  );

  const toPrice = contexts.filter(needsPrice);
  const pricing = toPrice.length > 0 ? await loadPricing(trx, [...orders.values()], productIds) : undefined;

  for (const [position, context] of contexts.entries()) {
    const { values, record } = context;
    const order = orders.get(orderIdOf(context))!;
    const product = products.get(productIds[position]!)!;
    if (pricing && needsPrice(context)) {
      const quantity = Number(values.product_qty ?? record?.product_qty ?? 0);
      const offer = bestVendorPrice(pricing.prices, { ...pricing.queryOf(order), productId: product.id, quantity });
      values.price_unit = offer?.price ?? Number(product.cost ?? 0);
      if (values.discount === undefined || values.discount === null) values.discount = offer?.discount ?? 0;
    }
    if (!record) values.discount ??= 0;
  }
};

/** A new line without a price, or one whose product or quantity changes without a price sent. */
function needsPrice({ values, record }: HookContext): boolean {
  if (values.price_unit !== undefined && values.price_unit !== null) return false;
  return !record || values.product_id !== undefined || values.product_qty !== undefined;
}

interface Pricing {
  prices: VendorPrice[];
  queryOf(order: Record<string, any>): Omit<VendorPriceQuery, 'productId' | 'quantity'>;
}

async function loadPricing(trx: HookContext['trx'], orders: Array<Record<string, any>>, productIds: number[]): Promise<Pricing> {
  const partners = new Map(
    (
      await trx('partners_partners')
        .whereIn('id', [...new Set(orders.map((order) => Number(order.partner_id)))])
        .select('id', 'parent_id')
    ).map((row) => [Number(row.id), row.parent_id === null ? null : Number(row.parent_id)]),
  );
  const partnerIdsOf = (order: Record<string, any>) => {
    const parent = partners.get(Number(order.partner_id));
    return parent ? [Number(order.partner_id), parent] : [Number(order.partner_id)];
  };
  const prices = await loadVendorPrices(trx, orders.flatMap(partnerIdsOf), productIds);
  const converters = new Map<number, VendorPriceQuery['convert']>();
  // A vendor's prices hold between dates: the order's moment is compared on the company's day.
  const days = new Map<number, string>();
  for (const order of orders) {
    converters.set(Number(order.id), await orderCurrencyConverter(trx, order, prices));
    days.set(Number(order.id), await companyDayOf(trx, Number(order.company_id), order.ordered_at));
  }
  return {
    prices,
    queryOf: (order) => ({ partnerIds: partnerIdsOf(order), companyId: Number(order.company_id), date: days.get(Number(order.id))!, convert: converters.get(Number(order.id))! }),
  };
}
