// Line amounts with taxes: percent and fixed taxes, included in the price or added to it.
// Each amount is rounded to the currency's precision, and a price that includes taxes is kept
// exactly: subtotal + taxes = the price the customer was quoted.
import { roundTo } from './money.ts';

export interface TaxRule {
  id: number;
  amountType: 'percent' | 'fixed' | 'division';
  /** Percent (15 for 15 %) or a fixed amount per unit. */
  amount: number;
  priceInclude: boolean;
}

export interface LineInput {
  priceUnit: number;
  quantity: number;
  /** Percent, 0 to 100. */
  discount: number;
  taxes: TaxRule[];
  /** Decimal places of the currency (2 for USD, 0 for JPY). */
  precision: number;
}

export interface LineAmounts {
  subtotal: number;
  tax: number;
  total: number;
  taxes: Array<{ id: number; amount: number }>;
}

export function computeLine({ priceUnit, quantity, discount, taxes, precision }: LineInput): LineAmounts {
  const gross = roundTo(priceUnit * (1 - discount / 100) * quantity, precision);
  const included = taxes.filter((tax) => tax.priceInclude);
  const includedPercent = included.filter((tax) => tax.amountType !== 'fixed').reduce((sum, tax) => sum + tax.amount, 0);
  const includedFixed = included.filter((tax) => tax.amountType === 'fixed').reduce((sum, tax) => sum + tax.amount * quantity, 0);
  // The untaxed base hidden in a price that includes taxes.
  const base = (gross - includedFixed) / (1 + includedPercent / 100);

  const amounts = taxes.map((tax) => ({ id: tax.id, amount: roundTo(taxAmount(tax, base, quantity), precision) }));
  const includedTotal = amounts.filter((_, i) => taxes[i]!.priceInclude).reduce((sum, tax) => sum + tax.amount, 0);
  const subtotal = included.length > 0 ? roundTo(gross - includedTotal, precision) : gross;
  const tax = roundTo(
    amounts.reduce((sum, item) => sum + item.amount, 0),
    precision,
  );
  return { subtotal, tax, total: roundTo(subtotal + tax, precision), taxes: amounts };
}

function taxAmount(tax: TaxRule, base: number, quantity: number): number {
  switch (tax.amountType) {
    case 'fixed':
      return tax.amount * quantity;
    case 'division':
      // Odoo's "percentage of price tax included": the tax is that share of the taxed price.
      return tax.amount >= 100 ? 0 : base / (1 - tax.amount / 100) - base;
    default:
      return (base * tax.amount) / 100;
  }
}
