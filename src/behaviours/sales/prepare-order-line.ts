// Before the lines of an order are written (all of them at once): its unit price from the order's
// price list when none was sent (its place in the order, what it copies of its order and what it
// takes from its product are declared in resources/sales/order-lines.yaml). The order, the
// products and the price list are read once for all the lines.
import type { BatchHook, Hook } from '../../../engine/index.ts';
import { companyDayOf } from '../support/company-time-zone.ts';
import { rateOn } from '../support/currency-rates.ts';
import { priceFromRules, type PriceRule } from './price-list-pricing.ts';

export const prepareOrderLines: BatchHook = async (contexts) => {
  if (contexts.length === 0) return;
  const { trx } = contexts[0]!;
  const orderIds = [...new Set(contexts.map(({ values, record }) => Number(values.order_id ?? record?.order_id)))];
  const orders = new Map((await trx('sales_orders').whereIn('id', orderIds)).map((row) => [Number(row.id), row]));
  const productIds = contexts.map(({ values, record }) => Number(values.product_id ?? record?.product_id));
  const products = new Map(
    (
      await trx('products_products')
        .whereIn('id', [...new Set(productIds)])
        .select('id', 'name', 'price', 'cost', 'uom_id', 'category_id')
    ).map((row) => [Number(row.id), row]),
  );
  const pricing = new Map<number, Promise<Pricing>>(); // per price list, read once

  for (const [position, { values, record }] of contexts.entries()) {
    const order = orders.get(Number(values.order_id ?? record?.order_id))!;
    const product = products.get(productIds[position]!)!;
    const quantity = Number(values.product_qty ?? record?.product_qty ?? 0);
    if ((values.price_unit === undefined || values.price_unit === null) && (!record || values.product_id !== undefined || values.product_qty !== undefined)) {
      if (order.price_list_id) {
        if (!pricing.has(order.price_list_id)) pricing.set(order.price_list_id, loadPricing(trx, order, [...products.values()]));
        values.price_unit = priceFor(await pricing.get(order.price_list_id)!, order, product, quantity);
      } else if (!record) values.price_unit = 0;
    }
    if (values.price_unit !== undefined) values.technical_price_unit = values.price_unit;
  }
};

interface Pricing {
  rules: PriceRule[];
  /** Category id → the category and its ancestors, nearest first. */
  categories: Map<number, number[]>;
  /** Units of the order's currency per unit of the company's (1 for the company's currency, and for a currency without rates). */
  rate: number;
}

/** What pricing lines with a price list needs, read once for all the lines of a write. */
async function loadPricing(trx: Parameters<Hook>[0]['trx'], order: Record<string, any>, products: Array<Record<string, any>>): Promise<Pricing> {
  const rules = await trx('sales_price_list_rules').where('price_list_id', order.price_list_id);
  const categoryRows = await trx('products_categories')
    .whereIn('id', [...new Set(products.map((product) => Number(product.category_id)))])
    .select('id', 'parent_path');
  // The category and its ancestors, nearest first, from the path the category keeps ("/1/6/").
  const categories = new Map(
    categoryRows.map((row) => [
      Number(row.id),
      [
        Number(row.id),
        ...String(row.parent_path ?? '')
          .split('/')
          .filter(Boolean)
          .map(Number)
          .reverse(),
      ],
    ]),
  );
  // A rule's moments hold from and until the company's days they fall on: the order's date is one of those days.
  const dayOf = (moment: unknown) => (moment === null || moment === undefined ? null : companyDayOf(trx, Number(order.company_id), moment));
  const dated = await Promise.all(rules.map(async (rule) => toRule(rule, await dayOf(rule.date_start), await dayOf(rule.date_end))));
  return { rules: dated, categories, rate: await rateOn(trx, Number(order.company_id), Number(order.currency_id), order.date_order) };
}

function priceFor(pricing: Pricing, order: Record<string, any>, product: Record<string, any>, quantity: number): number {
  const price = priceFromRules(
    {
      id: product.id,
      price: Number(product.price),
      cost: product.cost === null ? null : Number(product.cost),
      categoryIds: pricing.categories.get(Number(product.category_id)) ?? [],
    },
    quantity,
    String(order.date_order),
    pricing.rules,
  );
  return price * pricing.rate; // product prices are in the company's currency
}

function toRule(rule: Record<string, any>, firstDay: string | null, lastDay: string | null): PriceRule {
  const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    productId: rule.product_id ?? null,
    categoryId: rule.category_id ?? null,
    minQuantity: Number(rule.min_quantity ?? 0),
    computePrice: rule.compute_price ?? 'fixed',
    fixedPrice: number(rule.fixed_price),
    percentPrice: number(rule.percent_price),
    base: rule.base === 'standard_price' ? 'standard_price' : 'list_price',
    priceDiscount: number(rule.price_discount),
    priceSurcharge: number(rule.price_surcharge),
    firstDay,
    lastDay,
  };
}
