// beforeCreate/beforeUpdate of an order line: what the line takes from its order and product,
// and its unit price from the order's price list when none was sent.
import type { Hook } from '../../../engine/index.ts';
import { priceFromRules, type PriceRule } from './price-list-pricing.ts';

export const prepareOrderLine: Hook = async ({ trx, values, record }) => {
  const orderId = (values.order_id ?? record?.order_id) as number;
  const order = await trx('sales_orders').where('id', orderId).first();
  const productId = (values.product_id ?? record?.product_id) as number;
  const product = await trx('products_products').where('id', productId).first('id', 'name', 'price', 'cost', 'uom_id', 'category_id');
  const quantity = Number(values.product_qty ?? record?.product_qty ?? 0);

  if (values.product_id !== undefined || !record) {
    values.name = product.name;
    values.product_uom_id ??= product.uom_id;
  }
  if (values.product_qty !== undefined) values.product_uom_qty = values.product_qty;
  if ((values.price_unit === undefined || values.price_unit === null) && (!record || values.product_id !== undefined || values.product_qty !== undefined)) {
    if (order.price_list_id) values.price_unit = await priceListPrice(trx, order, product, quantity);
    else if (!record) values.price_unit = 0;
  }
  if (values.price_unit !== undefined) values.technical_price_unit = values.price_unit;
  for (const name of ['discount', 'customer_lead', 'qty_delivered', 'product_packaging_qty']) if (!record && values[name] === undefined) values[name] = 0;
  Object.assign(values, {
    state: order.state,
    company_id: order.company_id,
    currency_id: order.currency_id,
    order_partner_id: order.partner_id,
    salesman_id: order.user_id,
    warehouse_id: order.warehouse_id,
    qty_delivered_method: 'stock_move',
  });
  if (!record) {
    const highest = await trx('sales_order_lines').max({ sort: 'sort' }).first();
    values.sort ??= Number(highest?.sort ?? 0) + 1;
  }
};

async function priceListPrice(trx: Parameters<Hook>[0]['trx'], order: Record<string, any>, product: Record<string, any>, quantity: number): Promise<number> {
  const rules = await trx('sales_price_list_rules').where('price_list_id', order.price_list_id);
  // The category and its ancestors, nearest first, from the path the category keeps ("/1/6/").
  const category = await trx('products_categories').where('id', product.category_id).first('id', 'parent_path');
  const ancestors = String(category?.parent_path ?? '').split('/').filter(Boolean).map(Number).reverse();
  const categoryIds = category ? [Number(category.id), ...ancestors] : [];
  const price = priceFromRules(
    { id: product.id, price: Number(product.price), cost: product.cost === null ? null : Number(product.cost), categoryIds },
    quantity,
    String(order.date_order),
    rules.map((rule: Record<string, any>): PriceRule => ({
      productId: rule.product_id ?? null,
      categoryId: rule.category_id ?? null,
      minQuantity: Number(rule.min_quantity ?? 0),
      computePrice: rule.compute_price ?? 'fixed',
      fixedPrice: rule.fixed_price === null || rule.fixed_price === undefined ? null : Number(rule.fixed_price),
      percentPrice: rule.percent_price === null || rule.percent_price === undefined ? null : Number(rule.percent_price),
      base: rule.base === 'standard_price' ? 'standard_price' : 'list_price',
      priceDiscount: rule.price_discount === null || rule.price_discount === undefined ? null : Number(rule.price_discount),
      priceSurcharge: rule.price_surcharge === null || rule.price_surcharge === undefined ? null : Number(rule.price_surcharge),
      dateStart: rule.date_start ?? null,
      dateEnd: rule.date_end ?? null,
    })),
  );
  return convertFromCompanyCurrency(trx, price, order);
}

/** Product prices are in the company's currency; a price list in another currency converts them at the latest rate. */
async function convertFromCompanyCurrency(trx: Parameters<Hook>[0]['trx'], price: number, order: Record<string, any>): Promise<number> {
  const company = await trx('companies').where('id', order.company_id).first('currency_id');
  if (!company || company.currency_id === order.currency_id) return price;
  const rate = await trx('currency_rates')
    .where('currency_id', order.currency_id)
    .where('name', '<=', String(order.date_order).slice(0, 10))
    .where((query) => query.where('company_id', order.company_id).orWhereNull('company_id'))
    .orderBy('name', 'desc')
    .first('rate');
  return rate ? price * Number(rate.rate) : price;
}
