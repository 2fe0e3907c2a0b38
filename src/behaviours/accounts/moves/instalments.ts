// When a document's amount is due: one date without a payment term, else one instalment per due
// term of the term (reference-o2c-p2p §2.7). Amounts are split by percent or fixed amount, each
// rounded to the currency's step and, on a document with a cash rounding, to the rounding's step
// (by its method) so that each can be paid in cash, the last instalment taking what remains: the
// instalments always add up to the total.
import { roundCash, roundStep } from '../money.ts';

export interface DueTerm {
  value: string; // percent, fixed
  value_amount: number | string;
  delay_type: string;
  nb_days: number | string;
  days_next_month?: number | string | null;
}

/** A document's cash rounding: its step (0.05) and method (UP, DOWN, HALF-UP). */
export interface CashRounding {
  rounding: number | string;
  rounding_method: string;
}

export interface Instalment {
  /** YYYY-MM-DD */
  maturity: string;
  amount: number;
}

/** Splits `total` (document currency, rounded to its `step`: 0.01, 1, 0.05) over the due terms, from `start` (YYYY-MM-DD). */
export function instalments(total: number, step: number, start: string, dueTerms: DueTerm[], dueDate?: string | null, cash?: CashRounding): Instalment[] {
  if (dueTerms.length === 0) return [{ maturity: dueDate ?? start, amount: roundStep(total, step) }];
  const result: Instalment[] = [];
  const sign = Math.sign(total) || 1;
  let left = roundStep(total, step);
  for (const [index, term] of dueTerms.entries()) {
    const last = index === dueTerms.length - 1;
    const exact = term.value === 'fixed' ? sign * Number(term.value_amount) : (total * Number(term.value_amount)) / 100;
    const share = cash ? roundCash(roundStep(exact, step), Number(cash.rounding), cash.rounding_method) : roundStep(exact, step);
    // Never more than what is left, never the other way: terms that add up to more than the total
    // leave the last ones empty rather than owing back.
    const amount = last ? left : sign * Math.min(Math.max(sign * share, 0), sign * left);
    left = roundStep(left - amount, step);
    if (amount !== 0 || (last && result.length === 0)) result.push({ maturity: dueDateOf(start, term), amount });
  }
  return result;
}

function dueDateOf(start: string, term: DueTerm): string {
  const days = Number(term.nb_days ?? 0);
  const date = new Date(`${start}T00:00:00Z`);
  switch (term.delay_type) {
    case 'days_after_end_of_month':
      return iso(addDays(endOfMonth(date, 0), days));
    case 'days_after_end_of_next_month':
      return iso(addDays(endOfMonth(date, 1), days));
    case 'days_end_of_month_on_the':
    case 'days_end_of_month_no_the': {
      // The given day of the month after the end of the month the delay reaches.
      const reached = addDays(date, days);
      const day = Math.max(1, Number(term.days_next_month ?? 1));
      const next = new Date(Date.UTC(reached.getUTCFullYear(), reached.getUTCMonth() + 1, 1));
      return iso(new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth(), Math.min(day, endOfMonth(next, 0).getUTCDate()))));
    }
    default:
      return iso(addDays(date, days));
  }
}

function endOfMonth(date: Date, monthsLater: number): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + monthsLater + 1, 0));
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}

function iso(date: Date): string {
  return date.toISOString().slice(0, 10);
}
