// The unit price a price list gives a product: the most specific rule that applies (product,
// then category or one of its parents, then every product), at the largest minimum quantity
// reached, within its days (its start's and its end's in the company's calendar); without a rule, the product's sales price.

export interface PriceRule {
  productId: number | null;
  categoryId: number | null;
  minQuantity: number;
  computePrice: 'fixed' | 'percentage' | 'formula';
  fixedPrice: number | null;
  percentPrice: number | null;
  /** formula: the price it starts from. */
  base: 'list_price' | 'standard_price';
  priceDiscount: number | null;
  priceSurcharge: number | null;
  /** The company's days the rule's start and end fall on (none: open). */
  firstDay: string | null;
  lastDay: string | null;
}

export interface PricedProduct {
  id: number;
  price: number;
  cost: number | null;
  /** The product's category and its parents, nearest first. */
  categoryIds: number[];
}

export function priceFromRules(product: PricedProduct, quantity: number, date: string, rules: PriceRule[]): number {
  const rule = applicableRules(product, quantity, date, rules)[0];
  if (!rule) return product.price;
  switch (rule.computePrice) {
    case 'fixed':
      return rule.fixedPrice ?? product.price;
    case 'percentage':
      return product.price * (1 - (rule.percentPrice ?? 0) / 100);
    case 'formula': {
      const base = rule.base === 'standard_price' ? (product.cost ?? 0) : product.price;
      return base * (1 - (rule.priceDiscount ?? 0) / 100) + (rule.priceSurcharge ?? 0);
    }
  }
}

function applicableRules(product: PricedProduct, quantity: number, date: string, rules: PriceRule[]): PriceRule[] {
  const day = date.slice(0, 10);
  const specificity = (rule: PriceRule) => {
    if (rule.productId !== null) return 0;
    if (rule.categoryId !== null) return 1 + product.categoryIds.indexOf(rule.categoryId);
    return 1 + product.categoryIds.length;
  };
  return rules
    .filter((rule) => rule.productId === null || rule.productId === product.id)
    .filter((rule) => rule.productId !== null || rule.categoryId === null || product.categoryIds.includes(rule.categoryId))
    .filter((rule) => quantity >= rule.minQuantity)
    .filter((rule) => (rule.firstDay === null || rule.firstDay <= day) && (rule.lastDay === null || rule.lastDay >= day))
    .sort((a, b) => specificity(a) - specificity(b) || b.minQuantity - a.minQuantity);
}
