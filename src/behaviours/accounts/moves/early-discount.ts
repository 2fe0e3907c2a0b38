// Early-payment discounts (Odoo's payment terms with `early_discount`; reference-o2c-p2p §2.7): what
// an invoice or bill offers when paid within some days of its date, and how a payment that takes
// the offer is booked. Pure: compute-move.ts puts the offer on the receivable or payable line, and
// pay.ts books the difference.
import { roundCash, roundStep } from '../money.ts';
import type { CashRounding } from './instalments.ts';

/** A payment term's discount (accounts/payment-terms). */
export interface EarlyDiscount {
  percentage: number;
  days: number;
  /** included: off the whole total, taxes too; excluded: off the untaxed amount only. */
  computation: 'included' | 'excluded';
}

/** The amounts of a document, signed as its receivable or payable line is, in its currency and in the company's. */
export interface SignedAmounts {
  currency: number;
  balance: number;
}

export interface DiscountOffer {
  /** YYYY-MM-DD: the last day a payment takes the discount. */
  date: string;
  /** What is left to pay by then, signed as the line. */
  amountCurrency: number;
  balance: number;
}

/** Which payment terms' discount a document can use: invoices and bills, as in Odoo (not credit notes and refunds). */
export const DISCOUNTED_TYPES = new Set(['out_invoice', 'in_invoice']);

/**
 * The offer on a document of one instalment: its total less the discount, at the currency's step
 * (and the cash rounding's, when the document has one: the discounted amount is paid in cash too),
 * the company amount following the rate when the cash rounding moved it.
 */
export function discountOffer(
  discount: EarlyDiscount,
  start: string,
  total: SignedAmounts,
  untaxed: SignedAmounts,
  money: { step: number; companyStep: number; rate: number; cash?: CashRounding },
): DiscountOffer {
  const share = discount.percentage / 100;
  const offered = (whole: number, base: number, step: number) => roundStep(discount.computation === 'excluded' ? whole - base * share : whole * (1 - share), step);
  let amountCurrency = offered(total.currency, untaxed.currency, money.step);
  let balance = offered(total.balance, untaxed.balance, money.companyStep);
  if (money.cash) {
    const cash = roundCash(amountCurrency, Number(money.cash.rounding), money.cash.rounding_method);
    if (cash !== amountCurrency) {
      amountCurrency = cash;
      balance = roundStep(cash / money.rate, money.companyStep);
    }
  }
  return { date: addDays(start, discount.days), amountCurrency, balance };
}

/** A document's tax line, as its payment sees it. */
export interface TaxLine {
  account_id: number;
  tax_line_id: number | null;
  tax_repartition_line_id: number | null;
  amount_currency: number;
  balance: number;
}

/** One line of the payment's entry that books a part of the discount. */
export interface DiscountPart {
  account_id: number;
  tax_line_id: number | null;
  tax_repartition_line_id: number | null;
  amount_currency: number;
  balance: number;
}

/**
 * The discount a payment takes, as the lines of its entry: with `included`, each tax line of the
 * document lowered by the discount's share of it (on the tax's account: the tax due falls with the
 * price paid), and the rest on the discount account; with `excluded`, all of it on the discount
 * account. `writeOff` is the discount signed as the payment's own line (positive for a payment
 * received); the parts add up to it exactly, in both currencies.
 */
export function discountParts(
  discount: EarlyDiscount,
  writeOff: SignedAmounts,
  taxLines: TaxLine[],
  discountAccountId: number,
  steps: { step: number; companyStep: number },
): DiscountPart[] {
  const share = discount.percentage / 100;
  const taxParts: DiscountPart[] =
    discount.computation === 'included'
      ? taxLines
          .map((line) => ({
            account_id: line.account_id,
            tax_line_id: line.tax_line_id,
            tax_repartition_line_id: line.tax_repartition_line_id,
            amount_currency: roundStep(-line.amount_currency * share, steps.step),
            balance: roundStep(-line.balance * share, steps.companyStep),
          }))
          .filter((part) => part.amount_currency !== 0 || part.balance !== 0)
      : [];
  const sum = (key: 'amount_currency' | 'balance') => taxParts.reduce((total, part) => total + part[key], 0);
  const base: DiscountPart = {
    account_id: discountAccountId,
    tax_line_id: null,
    tax_repartition_line_id: null,
    amount_currency: roundStep(writeOff.currency - sum('amount_currency'), steps.step),
    balance: roundStep(writeOff.balance - sum('balance'), steps.companyStep),
  };
  return [base, ...taxParts];
}

function addDays(date: string, days: number): string {
  return new Date(new Date(`${date}T00:00:00Z`).getTime() + days * 86_400_000).toISOString().slice(0, 10);
}
