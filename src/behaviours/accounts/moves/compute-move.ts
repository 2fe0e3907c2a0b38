// A document's journal items and totals, computed from its product lines (reference-o2c-p2p §2.7):
// each line's subtotal and taxes (compute-taxes.ts, at the currency's rounding step and by the
// company's rounding mode), one tax line per tax, group, repartition line and account, a
// cash-rounding line when the document has a rounding, and one receivable or payable line per
// instalment, in the document currency and in the company's. The receivable/payable lines take
// exactly the other side of everything else, so the document's debits always equal its credits.
//
// Runs while a document is a draft (created, updated, reset) and when it is confirmed; payments
// and reversals settle the receivable/payable lines afterwards without recomputing. A fixed number
// of statements, however many lines: one read of the lines and three of their taxes (tax-rules.ts),
// one UPDATE of the product lines, one DELETE and one INSERT of the computed lines.
import type { Knex } from 'knex';
import { ValidationError, nowTimestamp } from '../../../../engine/index.ts';
import { computeDocument, type RoundingMode } from '../compute-taxes.ts';
import { roundCash, roundStep, roundTo, stepOf } from '../money.ts';
import { taxesOfLines } from '../tax-rules.ts';
import { rateOn } from '../../support/currency-rates.ts';
import { updateRows } from '../../support/update-rows.ts';
import { DISCOUNTED_TYPES, discountOffer, type DiscountOffer, type EarlyDiscount } from './early-discount.ts';
import { instalments, type CashRounding, type DueTerm } from './instalments.ts';
import { kindOf, type DocumentKind } from './kinds.ts';
import { MAX_AMOUNT } from '../order-totals.ts';

type Row = Record<string, any>;

interface Amounts {
  amount_currency: number;
  balance: number;
}

export async function recomputeMove(trx: Knex.Transaction, moveId: number): Promise<void> {
  const move = await trx('accounts_account_moves').where('id', moveId).first();
  const kind = kindOf(move.move_type);
  const setting = await documentSetting(trx, move);
  const lines: Row[] = await trx('accounts_account_move_lines').where({ move_id: moveId, display_type: 'product' }).orderBy('sort').orderBy('id');
  const taxes = await taxesOfLines(
    trx,
    'accounts_accounts_move_line_taxes',
    'move_line_id',
    lines.map((line) => Number(line.id)),
  );

  const { rate, step, companyStep } = setting;
  const inCompany = (amount: number) => roundStep(amount / rate, companyStep);
  const signed = (amount: number): Amounts => {
    const amount_currency = roundStep(kind.direction * amount, step);
    return { amount_currency, balance: inCompany(amount_currency) };
  };

  // Product lines, and the tax lines they make: one per tax, group, repartition line and account.
  const document = computeDocument(
    lines.map((line) => ({
      key: line,
      priceUnit: Number(line.price_unit),
      quantity: Number(line.quantity),
      discount: Number(line.discount ?? 0),
      taxes: taxes.get(Number(line.id)) ?? [],
      accountId: line.account_id == null ? null : Number(line.account_id),
    })),
    { step, mode: setting.mode, refund: String(move.move_type).endsWith('_refund') },
  );
  const productUpdates: Array<{ id: number; values: Row }> = [];
  for (const [index, { key: line, ...amounts }] of document.lines.entries()) {
    if (Math.abs(amounts.total) > MAX_AMOUNT) {
      throw new ValidationError({ [`invoice_lines.${index}`]: [`The invoice_lines.${index} total (${amounts.total}) is more than an amount can hold (${MAX_AMOUNT}).`] });
    }
    const { amount_currency, balance } = signed(amounts.subtotal);
    productUpdates.push({
      id: Number(line.id),
      values: {
        price_subtotal: amounts.subtotal,
        price_total: amounts.total,
        amount_currency,
        balance,
        ...debitCredit(balance),
        currency_id: move.currency_id,
        partner_id: move.commercial_partner_id ?? move.partner_id,
        journal_id: move.journal_id,
        date: move.date,
        invoice_date: move.invoice_date,
        parent_state: move.state,
        move_name: move.name,
      },
    });
  }
  const untaxed = document.untaxed;
  const taxed = document.tax;

  const common = {
    move_id: moveId,
    move_name: move.name,
    parent_state: move.state,
    journal_id: move.journal_id,
    company_id: move.company_id,
    company_currency_id: setting.companyCurrencyId,
    currency_id: move.currency_id,
    partner_id: move.commercial_partner_id ?? move.partner_id,
    date: move.date,
    invoice_date: move.invoice_date,
    creator_id: move.creator_id,
    discount: 0,
  };
  const computed: Row[] = [];
  for (const { tax, group, share, accountId, amount, base } of document.taxLines) {
    const { amount_currency, balance } = signed(amount);
    computed.push({
      ...common,
      display_type: 'tax',
      name: tax.label ?? null,
      account_id: accountId,
      tax_line_id: tax.id,
      tax_repartition_line_id: share.id,
      group_tax_id: group?.id ?? null,
      tax_group_id: tax.taxGroupId ?? null,
      tax_base_amount: Math.abs(inCompany(base)),
      amount_currency,
      balance,
      ...debitCredit(balance),
    });
  }

  // Cash rounding: the total rounded to the rounding's step, the difference on a line of its own.
  let roundingUntaxed = 0;
  let roundingTax = 0;
  if (setting.cashRounding) {
    const rounding = setting.cashRounding;
    const total = roundStep(untaxed + taxed, step);
    const difference = roundStep(roundCash(total, Number(rounding.rounding), rounding.rounding_method) - total, step);
    if (difference !== 0) {
      const biggest = rounding.strategy === 'biggest_tax' ? [...computed].sort((a, b) => Math.abs(b.amount_currency) - Math.abs(a.amount_currency))[0] : undefined;
      const { amount_currency, balance } = signed(difference);
      computed.push({
        ...common,
        display_type: 'rounding',
        name: rounding.name,
        account_id: biggest?.account_id ?? (difference > 0 ? rounding.loss_account_id : rounding.profit_account_id) ?? setting.journal.default_account_id,
        tax_line_id: biggest?.tax_line_id ?? null,
        amount_currency,
        balance,
        ...debitCredit(balance),
      });
      if (biggest) roundingTax = difference;
      else roundingUntaxed = difference;
    }
  }

  // Receivable or payable: the other side of everything above, by instalment.
  const others = [...productUpdates.map((update) => update.values as Amounts), ...computed];
  const totalCurrency = roundStep(-others.reduce((sum, line) => sum + line.amount_currency, 0), step);
  const totalBalance = roundStep(-others.reduce((sum, line) => sum + line.balance, 0), companyStep);
  const start = move.invoice_date ?? move.date;
  const parts = instalments(totalCurrency, step, start, setting.dueTerms as DueTerm[], move.invoice_date_due, setting.cashRounding as CashRounding | undefined);
  // An early-payment discount, on a document of one instalment (the term's own rule).
  let offer: DiscountOffer | undefined;
  if (setting.earlyDiscount && parts.length === 1) {
    const untaxedLines = [...productUpdates.map((update) => update.values as Amounts), ...computed.filter((line) => line.display_type === 'rounding' && roundingUntaxed !== 0)];
    offer = discountOffer(
      setting.earlyDiscount,
      start,
      { currency: totalCurrency, balance: totalBalance },
      { currency: -untaxedLines.reduce((sum, line) => sum + line.amount_currency, 0), balance: -untaxedLines.reduce((sum, line) => sum + line.balance, 0) },
      { step, companyStep, rate, cash: setting.cashRounding as CashRounding | undefined },
    );
  }
  let balanceLeft = totalBalance;
  for (const [index, part] of parts.entries()) {
    const balance = index === parts.length - 1 ? balanceLeft : inCompany(part.amount);
    balanceLeft = roundStep(balanceLeft - balance, companyStep);
    computed.push({
      ...common,
      display_type: 'payment_term',
      name: move.payment_reference ?? move.name ?? '',
      account_id: setting.counterpartAccountId,
      date_maturity: part.maturity,
      amount_currency: part.amount,
      balance,
      amount_residual: balance,
      amount_residual_currency: part.amount,
      ...debitCredit(balance),
      ...(offer && { discount_date: offer.date, discount_amount_currency: offer.amountCurrency, discount_balance: offer.balance }),
    });
  }

  const now = nowTimestamp();
  const totals = moveTotals(kind, lines.length > 0 ? productUpdates.map((update) => update.values as Amounts) : [], computed, roundingUntaxed, roundingTax, step);
  if (Math.abs(totals.amount_total) > MAX_AMOUNT)
    throw new ValidationError({ invoice_lines: [`The document total (${totals.amount_total}) is more than an amount can hold (${MAX_AMOUNT}).`] });
  await updateRows(trx, 'accounts_account_move_lines', productUpdates);
  // Raw: the computed lines are the document's own, replaced wholesale each time it is computed (its change is the document's).
  await trx('accounts_account_move_lines').where('move_id', moveId).whereNot('display_type', 'product').delete();
  if (computed.length > 0) {
    const sortStart = lines.length + 1;
    const rows = computed.map((line, index) => ({
      tax_line_id: null,
      tax_repartition_line_id: null,
      group_tax_id: null,
      tax_group_id: null,
      tax_base_amount: 0,
      date_maturity: null,
      amount_residual: 0,
      amount_residual_currency: 0,
      discount_date: null,
      discount_amount_currency: 0,
      discount_balance: 0,
      ...line,
      sort: sortStart + index,
      created_at: now,
      updated_at: now,
    }));
    await trx('accounts_account_move_lines').insert(rows);
  }
  const maturities = parts.map((part) => part.maturity).sort();
  await trx('accounts_account_moves')
    .where('id', moveId)
    .update({
      ...totals,
      invoice_currency_rate: rate,
      invoice_date_due: setting.dueTerms.length > 0 ? maturities[maturities.length - 1] : move.invoice_date_due,
      updated_at: now,
    });
}

/** The document's totals from its journal items (§2.7): positive amounts, and company-currency amounts signed. */
function moveTotals(kind: DocumentKind, products: Amounts[], computed: Row[], roundingUntaxed: number, roundingTax: number, step: number) {
  const sum = (lines: Array<Amounts | Row>, key: 'amount_currency' | 'balance') => lines.reduce((total, line) => total + Number(line[key as keyof typeof line]), 0);
  const taxLines = computed.filter((line) => line.display_type === 'tax' || (line.display_type === 'rounding' && roundingTax !== 0));
  const untaxedLines = [...products, ...computed.filter((line) => line.display_type === 'rounding' && roundingUntaxed !== 0)];
  const terms = computed.filter((line) => line.display_type === 'payment_term');
  const untaxed = roundStep(kind.direction * sum(untaxedLines, 'amount_currency'), step);
  const tax = roundStep(kind.direction * sum(taxLines, 'amount_currency'), step);
  const total = roundStep(untaxed + tax, step);
  const residualCurrency = terms.reduce((sumOf, line) => sumOf + Number(line.amount_residual_currency), 0);
  const residual = terms.reduce((sumOf, line) => sumOf + Number(line.amount_residual), 0);
  return {
    amount_untaxed: untaxed,
    amount_tax: tax,
    amount_total: total,
    amount_residual: roundStep(-kind.direction * residualCurrency, step),
    amount_untaxed_signed: roundTo(-sum(untaxedLines, 'balance'), 4),
    amount_untaxed_in_currency_signed: roundTo(-sum(untaxedLines, 'amount_currency'), 4),
    amount_tax_signed: roundTo(-sum(taxLines, 'balance'), 4),
    amount_total_signed: roundTo(-sum([...untaxedLines, ...taxLines], 'balance'), 4),
    amount_total_in_currency_signed: roundTo(-kind.direction * total, 4),
    amount_residual_signed: roundTo(residual, 4),
  };
}

export function debitCredit(balance: number): { debit: number; credit: number } {
  return { debit: balance > 0 ? balance : 0, credit: balance < 0 ? -balance : 0 };
}

interface DocumentSetting {
  /** Units of the document currency per unit of the company currency. */
  rate: number;
  /** The rounding steps of the document's currency and of the company's (0.01, 1, 0.05). */
  step: number;
  companyStep: number;
  /** The company's tax rounding mode. */
  mode: RoundingMode;
  companyCurrencyId: number;
  journal: Row;
  dueTerms: Row[];
  cashRounding?: Row;
  /** The payment term's early-payment discount, on an invoice or bill whose term offers one. */
  earlyDiscount?: EarlyDiscount;
  counterpartAccountId: number;
}

/** What a document's amounts depend on besides its lines, read once. */
async function documentSetting(trx: Knex.Transaction, move: Row): Promise<DocumentSetting> {
  const kind = kindOf(move.move_type);
  const company = await trx('companies').where('id', move.company_id).first('id', 'currency_id', 'tax_calculation_rounding_method');
  const companyCurrencyId = Number(company?.currency_id ?? move.currency_id);
  const currencies = new Map<number, Row>(
    (await trx('currencies').whereIn('id', [move.currency_id, companyCurrencyId]).select('id', 'decimal_places', 'rounding')).map((row) => [Number(row.id), row]),
  );
  // The rate at the invoice date (support/currency-rates.ts); none read for the company's currency.
  const rate = await rateOn(trx, Number(move.company_id), Number(move.currency_id), move.invoice_date ?? move.date, { companyCurrencyId });
  const journal = await trx('accounts_journals').where('id', move.journal_id).first();
  const dueTerms = move.invoice_payment_term_id ? await trx('accounts_payment_due_terms').where('payment_id', move.invoice_payment_term_id).orderBy('id') : [];
  const term =
    move.invoice_payment_term_id && DISCOUNTED_TYPES.has(move.move_type)
      ? await trx('accounts_payment_terms').where('id', move.invoice_payment_term_id).first('early_discount', 'discount_percentage', 'discount_days', 'early_pay_discount')
      : undefined;
  const cashRounding = move.invoice_cash_rounding_id ? await trx('accounts_cash_roundings').where('id', move.invoice_cash_rounding_id).first() : undefined;
  return {
    rate,
    step: stepOf(currencies.get(Number(move.currency_id))),
    companyStep: stepOf(currencies.get(companyCurrencyId)),
    mode: company?.tax_calculation_rounding_method === 'round_globally' ? 'round_globally' : 'round_per_line',
    companyCurrencyId,
    journal,
    dueTerms,
    cashRounding,
    earlyDiscount:
      term && Number(term.early_discount) && Number(term.discount_percentage) > 0
        ? { percentage: Number(term.discount_percentage), days: Number(term.discount_days ?? 0), computation: term.early_pay_discount === 'excluded' ? 'excluded' : 'included' }
        : undefined,
    counterpartAccountId: await counterpartAccount(trx, kind, move),
  };
}

/** The receivable (customers) or payable (vendors) account: the partner's, else the company's first of that type. */
async function counterpartAccount(trx: Knex.Transaction, kind: DocumentKind, move: Row): Promise<number> {
  const property = kind.counterpart === 'asset_receivable' ? 'property_account_receivable_id' : 'property_account_payable_id';
  const partner = move.commercial_partner_id ? await trx('partners_partners').where('id', move.commercial_partner_id).first(property) : undefined;
  if (partner?.[property]) return Number(partner[property]);
  const account = await trx('accounts_accounts')
    .where('account_type', kind.counterpart)
    .where('deprecated', false)
    .where((q) => q.where('company_id', move.company_id).orWhereNull('company_id'))
    .orderBy('id')
    .first('id');
  if (!account) {
    const what = kind.counterpart === 'asset_receivable' ? 'receivable' : 'payable';
    throw new ValidationError({ partner_id: [`No ${what} account is set up for this company: add an account of type ${kind.counterpart} first.`] });
  }
  return Number(account.id);
}
