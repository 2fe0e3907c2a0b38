// The tax computation (reference-o2c-p2p §2.7), in one place for invoices, credit notes, bills,
// refunds and the sales and purchase orders, modelled on Odoo's account.tax: pure functions of the
// lines, their taxes, the currency's rounding step and the company's rounding mode.
//
// One line (computeLine):
// - its base is quantity × unit price × (1 − discount/100), rounded to the currency's step;
// - its taxes are taken in `sort` order (then id), a group tax replaced by its children (in their
//   order), each tax once;
// - consecutive taxes of the same kind (amount type, price included or not, include_base_amount)
//   form a batch, computed together: a price-included percent tax is the base × amount/100 ÷
//   (1 + the batch's percents/100), a price-included division tax base × amount/100; a
//   price-excluded percent tax base × amount/100, a price-excluded division tax base × amount/100 ÷
//   (1 − the batch's percents/100); a fixed tax is quantity × amount, with the sign of the price;
// - fixed taxes are computed first, then the price-included ones from the last to the first, then
//   the others from the first to the last. A price-included tax is taken out of the base of the
//   taxes around it (unless, with include_base_amount, they are affected by it); a tax with
//   include_base_amount raises the base of the taxes after it that are affected by earlier taxes
//   (is_base_affected, the default): a cascade;
// - the line's subtotal is its base without the taxes included in it.
//
// Rounding: `round_per_line` rounds the base and each tax of each line to the currency's step,
// half away from zero; `round_globally` keeps each line's taxes at full precision and rounds the
// document's sum of each tax once (computeDocument). A step need not be a power of ten (0.05).
//
// Repartition: a tax's amount is spread over its repartition lines of kind `tax` (the invoice set,
// or the refund set for credit notes and refunds) by their factor, each share rounded and the
// rounding error put on the largest share; a negative factor books the opposite (reverse charge:
// +100 % and −100 % make a tax that costs nothing and is booked on two accounts). What a tax adds
// to a line's total is the sum of its shares.
import { roundStep } from './money.ts';

export type RoundingMode = 'round_per_line' | 'round_globally';

/** A repartition line of kind `tax` of a tax. */
export interface RepartitionShare {
  /** The repartition line; null for the one share a tax without repartition lines has. */
  id: number | null;
  /** factor_percent / 100: 1 for 100 %, −1 for the reverse-charge side. */
  factor: number;
  /** Where the share is booked; null: on the account of the line taxed. */
  accountId: number | null;
}

export interface TaxRule {
  id: number;
  amountType: 'percent' | 'fixed' | 'division' | 'group';
  /** Percent (15 for 15 %) or a fixed amount per unit; ignored for a group. */
  amount: number;
  priceInclude: boolean;
  /** The taxes after it apply on the base plus this tax. */
  includeBaseAmount?: boolean;
  /** Its base is raised by the taxes before it with include_base_amount (default true). */
  isBaseAffected?: boolean;
  /** The order of application; the id breaks ties. */
  sort?: number;
  /** A group's taxes. */
  children?: TaxRule[];
  /** Repartition lines of kind tax, by document type; absent: one share of 100 % on the line's account. */
  invoiceShares?: RepartitionShare[];
  refundShares?: RepartitionShare[];
  /** What its tax lines are called (its invoice label, else its name) and shown under: not used here. */
  label?: string;
  taxGroupId?: number | null;
}

export interface Rounding {
  /** The currency's rounding step: 0.01, 1, 0.05. */
  step: number;
  mode?: RoundingMode;
  /** Credit notes and refunds use the taxes' refund repartition lines. */
  refund?: boolean;
}

export interface LineInput {
  priceUnit: number;
  quantity: number;
  /** Percent, 0 to 100. */
  discount: number;
  taxes: TaxRule[];
}

export interface TaxAmount {
  tax: TaxRule;
  /** The group tax it comes from, if any. */
  group: TaxRule | null;
  /** What the tax applies on: the line's subtotal, plus the taxes before it that raise its base. */
  base: number;
  /** The tax (rounded to the step per line; at full precision when rounded globally). */
  amount: number;
  /** The amount spread over the repartition lines (rounded as the amount is). */
  shares: Array<{ share: RepartitionShare; amount: number }>;
}

export interface LineAmounts {
  /** Without taxes: the base less the taxes included in the price, rounded to the step. */
  subtotal: number;
  /** The sum of the taxes' shares, rounded to the step. */
  tax: number;
  total: number;
  taxes: TaxAmount[];
}

interface Slot {
  tax: TaxRule;
  group: TaxRule | null;
  /** Positions (in application order) of the taxes computed together with this one. */
  batch: number[];
  amount?: number;
  /** What the taxes computed before it add to (or take from) its base, for its amount. */
  extraForTax: number;
  /** The same, for the base it shows (also from taxes computed after it). */
  extraForBase: number;
  base: number;
}

const byOrder = (a: TaxRule, b: TaxRule) => (a.sort ?? 0) - (b.sort ?? 0) || a.id - b.id;
const raisesBase = (tax: TaxRule) => Boolean(tax.includeBaseAmount);
const affected = (tax: TaxRule) => tax.isBaseAffected !== false;

/** The taxes in the order they apply: by sort then id, a group replaced by its children, each tax once. */
export function flattenTaxes(taxes: TaxRule[]): Array<{ tax: TaxRule; group: TaxRule | null }> {
  const seen = new Set<number>();
  const result: Array<{ tax: TaxRule; group: TaxRule | null }> = [];
  for (const tax of [...taxes].sort(byOrder)) {
    const group = tax.amountType === 'group' ? tax : null;
    for (const member of group ? [...(group.children ?? [])].sort(byOrder) : [tax]) {
      // A group inside a group is refused when written (accounts.checkTaxChildren); never applied.
      if (member.amountType === 'group' || seen.has(member.id)) continue;
      seen.add(member.id);
      result.push({ tax: member, group });
    }
  }
  return result;
}

/** The batches, from the last tax backwards as Odoo forms them: consecutive taxes of one kind. */
function batchesOf(slots: Slot[]): void {
  let current: number[] = [];
  let nextAffected = false;
  const close = () => {
    const batch = [...current].sort((a, b) => a - b);
    for (const position of batch) slots[position]!.batch = batch;
  };
  for (let position = slots.length - 1; position >= 0; position--) {
    const tax = slots[position]!.tax;
    if (current.length > 0) {
      const head = slots[current[0]!]!.tax;
      const same =
        tax.amountType === head.amountType &&
        tax.priceInclude === head.priceInclude &&
        raisesBase(tax) === raisesBase(head) &&
        // A tax that raises the base of the next one is not computed with it.
        (!raisesBase(tax) || !nextAffected);
      if (!same) {
        close();
        current = [];
      }
    }
    nextAffected = affected(tax);
    current.push(position);
  }
  if (current.length > 0) close();
}

function sharesOf(tax: TaxRule, refund: boolean | undefined): RepartitionShare[] {
  return (refund ? tax.refundShares : tax.invoiceShares) ?? [{ id: null, factor: 1, accountId: null }];
}

/**
 * `amount` spread by the shares' factors, each share rounded to `step` (none when `step` is 0), the
 * difference with the rounded whole (amount × the sum of the factors) put on the largest share.
 */
export function spread(amount: number, shares: RepartitionShare[], step: number): Array<{ share: RepartitionShare; amount: number }> {
  const result = shares.map((share) => ({ share, amount: roundStep(amount * share.factor, step) }));
  if (step > 0 && result.length > 0) {
    const whole = roundStep(amount * shares.reduce((sum, share) => sum + share.factor, 0), step);
    const difference = roundStep(whole - result.reduce((sum, item) => sum + item.amount, 0), step);
    if (difference !== 0) {
      const largest = result.reduce((best, item) => (Math.abs(item.amount) > Math.abs(best.amount) ? item : best), result[0]!);
      largest.amount = roundStep(largest.amount + difference, step);
    }
  }
  return result;
}

/** One line's subtotal and taxes (see the top of this file). */
export function computeLine({ priceUnit, quantity, discount, taxes }: LineInput, { step, mode = 'round_per_line', refund }: Rounding): LineAmounts {
  const perLine = mode === 'round_per_line';
  const round = (value: number) => (perLine ? roundStep(value, step) : value);
  const rawBase = roundStep(priceUnit * (1 - discount / 100) * quantity, step);
  const slots: Slot[] = flattenTaxes(taxes).map(({ tax, group }) => ({ tax, group, batch: [], extraForTax: 0, extraForBase: 0, base: 0 }));
  batchesOf(slots);

  const percents = (slot: Slot) => slot.batch.reduce((sum, position) => sum + slots[position]!.tax.amount, 0) / 100;
  const evaluate = (slot: Slot): number => {
    const { tax } = slot;
    const base = rawBase + slot.extraForTax;
    if (tax.amountType === 'fixed') return (rawBase < 0 ? -1 : 1) * quantity * tax.amount;
    if (tax.priceInclude) {
      if (tax.amountType === 'division') return (base * tax.amount) / 100;
      const total = percents(slot);
      return total === -1 ? 0 : ((base / (1 + total)) * tax.amount) / 100;
    }
    if (tax.amountType === 'division') {
      const total = percents(slot);
      return (base * tax.amount) / 100 / (total === 1 ? 1 : 1 - total);
    }
    return (base * tax.amount) / 100;
  };
  // The tax's effect on the others' bases: an included tax leaves the base of the taxes around it
  // (those after it keep it when it raises their base); an excluded one that raises the base adds to it.
  const propagate = (slot: Slot) => {
    const amount = slot.amount!;
    const first = slot.batch[0]!;
    const last = slot.batch[slot.batch.length - 1]!;
    const add = (other: Slot, sign: number) => {
      if (other.amount === undefined) other.extraForTax += sign * amount;
      other.extraForBase += sign * amount;
    };
    if (slot.tax.priceInclude) {
      for (const other of slots.slice(last + 1)) if (!raisesBase(slot.tax) || !affected(other.tax)) add(other, -1);
      for (const other of slots.slice(0, first)) add(other, -1);
    } else if (raisesBase(slot.tax)) {
      for (const other of slots.slice(last + 1)) if (affected(other.tax)) add(other, 1);
    }
  };
  const compute = (slot: Slot) => {
    if (slot.amount !== undefined) return;
    slot.amount = round(evaluate(slot));
    propagate(slot);
  };
  for (const slot of [...slots].reverse()) if (slot.tax.amountType === 'fixed') compute(slot);
  for (const slot of [...slots].reverse()) if (slot.tax.priceInclude) compute(slot);
  for (const slot of slots) compute(slot);

  for (const slot of slots) {
    const batchTotal = slot.batch.reduce((sum, position) => sum + slots[position]!.amount!, 0);
    slot.base = rawBase + slot.extraForBase - (slot.tax.priceInclude ? batchTotal : 0);
  }
  const excluded = slots.length > 0 ? slots[0]!.base : rawBase;
  const subtotal = roundStep(excluded, step);
  if (!perLine && subtotal !== excluded) {
    // Rounded globally, the subtotal is still an amount of the currency: the taxes included in the
    // price take its rounding, so that subtotal + included taxes remain the price.
    const included = slots.filter((slot) => slot.tax.priceInclude && slot.tax.amountType !== 'fixed');
    const largest = included.reduce<Slot | undefined>((best, slot) => (best === undefined || Math.abs(slot.amount!) > Math.abs(best.amount!) ? slot : best), undefined);
    if (largest) largest.amount! += excluded - subtotal;
  }

  const details: TaxAmount[] = slots.map((slot) => ({
    tax: slot.tax,
    group: slot.group,
    base: perLine ? roundStep(slot.base, step) : slot.base,
    amount: slot.amount!,
    shares: spread(slot.amount!, sharesOf(slot.tax, refund), perLine ? step : 0),
  }));
  const tax = roundStep(
    details.reduce((sum, detail) => sum + detail.shares.reduce((total, share) => total + share.amount, 0), 0),
    step,
  );
  return { subtotal, tax, total: roundStep(subtotal + tax, step), taxes: details };
}

export interface DocumentLine<Key> extends LineInput {
  key: Key;
  /** The line's own account: where a share without an account of its own is booked. */
  accountId?: number | null;
}

/** The document's amount of one tax on one account: a tax line of an invoice. */
export interface TaxLine {
  tax: TaxRule;
  group: TaxRule | null;
  share: RepartitionShare;
  accountId: number | null;
  amount: number;
  /** The sum of the bases it was computed on. */
  base: number;
}

export interface DocumentAmounts<Key> {
  lines: Array<LineAmounts & { key: Key }>;
  /** One per tax, group, repartition line and account, in the order met; none that rounds to zero. */
  taxLines: TaxLine[];
  untaxed: number;
  tax: number;
  total: number;
}

/**
 * A document's lines and its tax lines, rounded by the company's mode: per line, each line's taxes
 * were rounded and are added up; globally, each tax line is the rounded sum of the lines' exact
 * amounts (the rounding error of a tax spread over several lines or accounts put on the largest).
 * An order and the invoice of the same lines have the same totals.
 */
export function computeDocument<Key>(lines: Array<DocumentLine<Key>>, rounding: Rounding): DocumentAmounts<Key> {
  const { step } = rounding;
  const perLine = (rounding.mode ?? 'round_per_line') === 'round_per_line';
  const computed = lines.map((line) => ({ key: line.key, ...computeLine(line, rounding) }));
  const byKey = new Map<string, TaxLine & { raw: number; taxKey: string }>();
  for (const [index, line] of computed.entries()) {
    for (const detail of line.taxes) {
      const taxKey = `${detail.tax.id}:${detail.group?.id ?? ''}`;
      for (const { share, amount } of detail.shares) {
        const accountId = share.accountId ?? lines[index]!.accountId ?? null;
        const key = `${taxKey}:${share.id ?? ''}:${accountId ?? ''}`;
        const entry = byKey.get(key) ?? { tax: detail.tax, group: detail.group, share, accountId, amount: 0, base: 0, raw: 0, taxKey };
        entry.raw += amount;
        entry.base += detail.base;
        byKey.set(key, entry);
      }
    }
  }
  const entries = [...byKey.values()];
  for (const entry of entries) {
    entry.amount = roundStep(entry.raw, step);
    entry.base = roundStep(entry.base, step);
  }
  if (!perLine) {
    // Each tax's lines add up to its rounded whole.
    for (const taxKey of new Set(entries.map((entry) => entry.taxKey))) {
      const own = entries.filter((entry) => entry.taxKey === taxKey);
      const whole = roundStep(
        own.reduce((sum, entry) => sum + entry.raw, 0),
        step,
      );
      const difference = roundStep(whole - own.reduce((sum, entry) => sum + entry.amount, 0), step);
      if (difference === 0) continue;
      const largest = own.reduce((best, entry) => (Math.abs(entry.amount) > Math.abs(best.amount) ? entry : best), own[0]!);
      largest.amount = roundStep(largest.amount + difference, step);
    }
  }
  const taxLines: TaxLine[] = entries.filter((entry) => entry.amount !== 0).map(({ raw: _raw, taxKey: _taxKey, ...line }) => line);
  const untaxed = roundStep(
    computed.reduce((sum, line) => sum + line.subtotal, 0),
    step,
  );
  const tax = roundStep(
    taxLines.reduce((sum, line) => sum + line.amount, 0),
    step,
  );
  return { lines: computed, taxLines, untaxed, tax, total: roundStep(untaxed + tax, step) };
}
