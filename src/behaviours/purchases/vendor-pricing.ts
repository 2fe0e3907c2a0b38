// The vendor price list that prices a purchase order line sent without a unit price, as Odoo's
// `_select_seller` chooses it: the order's vendor (or its parent company), the line's product,
// the order's company or every company, a minimum quantity the line reaches, valid on the order
// date. Of those, the most specific (the vendor itself before its parent company, the company's
// own before one for every company), then the lowest net price in the order's currency, then the
// largest minimum quantity, then the list's order.
import type { Knex } from 'knex';
import { ratesOn } from '../support/currency-rates.ts';

export interface VendorPrice {
  id: number;
  partnerId: number;
  productId: number;
  companyId: number | null;
  currencyId: number;
  minQty: number;
  price: number;
  discount: number;
  startsAt: string | null;
  endsAt: string | null;
  sort: number;
}

export interface VendorPriceQuery {
  /** The order's vendor, then its parent company (when it has one). */
  partnerIds: number[];
  productId: number;
  companyId: number;
  quantity: number;
  /** The order's day (YYYY-MM-DD): its moment in the company's time zone. */
  date: string;
  /** A price of the vendor price list's currency in the order's currency. */
  convert: (price: number, currencyId: number) => number;
}

export interface VendorOffer {
  price: number;
  discount: number;
}

/** The price lists of these vendors for these products, read once for all the lines of a write. */
export async function loadVendorPrices(trx: Knex.Transaction, partnerIds: number[], productIds: number[]): Promise<VendorPrice[]> {
  if (partnerIds.length === 0 || productIds.length === 0) return [];
  const rows = await trx('products_product_suppliers')
    .whereIn('partner_id', [...new Set(partnerIds)])
    .whereIn('product_id', [...new Set(productIds)]);
  return rows.map((row) => ({
    id: Number(row.id),
    partnerId: Number(row.partner_id),
    productId: Number(row.product_id),
    companyId: row.company_id === null ? null : Number(row.company_id),
    currencyId: Number(row.currency_id),
    minQty: Number(row.min_qty),
    price: Number(row.price),
    discount: Number(row.discount),
    startsAt: row.starts_at ?? null,
    endsAt: row.ends_at ?? null,
    sort: Number(row.sort ?? 0),
  }));
}

export function bestVendorPrice(prices: readonly VendorPrice[], query: VendorPriceQuery): VendorOffer | undefined {
  const day = query.date.slice(0, 10);
  const candidates = prices
    .filter((price) => price.productId === query.productId && query.partnerIds.includes(price.partnerId))
    .filter((price) => price.companyId === null || price.companyId === query.companyId)
    .filter((price) => query.quantity >= price.minQty)
    .filter((price) => (price.startsAt === null || price.startsAt.slice(0, 10) <= day) && (price.endsAt === null || price.endsAt.slice(0, 10) >= day))
    .map((price) => {
      const unit = query.convert(price.price, price.currencyId);
      return { price, unit, net: unit * (1 - price.discount / 100) };
    });
  const specificity = ({ price }: { price: VendorPrice }) => query.partnerIds.indexOf(price.partnerId) * 2 + (price.companyId === null ? 1 : 0);
  candidates.sort((a, b) => specificity(a) - specificity(b) || a.net - b.net || b.price.minQty - a.price.minQty || a.price.sort - b.price.sort || a.price.id - b.price.id);
  const best = candidates[0];
  return best && { price: best.unit, discount: best.price.discount };
}

/** Converts vendor prices to the order's currency at the order date's rates (read once per currency). */
export async function orderCurrencyConverter(trx: Knex.Transaction, order: Record<string, any>, prices: readonly VendorPrice[]): Promise<VendorPriceQuery['convert']> {
  const foreign = prices.map((price) => price.currencyId).filter((id) => id !== Number(order.currency_id));
  if (foreign.length === 0) return (price) => price;
  const rates = await ratesOn(trx, Number(order.company_id), [...foreign, Number(order.currency_id)], String(order.ordered_at));
  return (price, currencyId) => (currencyId === Number(order.currency_id) ? price : (price / rates.get(currencyId)!) * rates.get(Number(order.currency_id))!);
}
