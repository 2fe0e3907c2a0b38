// `pay` (reference-o2c-p2p §2.10): registers a payment of a posted document and settles its
// receivable or payable. The payment is posted in a bank or cash journal — the journal's account
// against the receivable/payable — and matched with the document's instalments, earliest due
// first. Unlike the original, an amount above what remains due is refused: the excess would sit
// unmatched on the partner's account with nobody told.
import { ActionRefusedError, ValidationError, nowTimestamp, todayFor, type Action } from '../../../../engine/index.ts';
import { roundStep, roundTo, stepOf } from '../money.ts';
import { debitCredit } from './compute-move.ts';
import { DISCOUNTED_TYPES, discountParts, type DiscountPart, type EarlyDiscount } from './early-discount.ts';
import { kindOf } from './kinds.ts';
import { markPaymentsMatched } from './move-actions.ts';
import { nextMoveName } from './naming.ts';
import { openLines, reconcile, refreshResiduals } from './reconcile.ts';

/** The body `pay` declares (resources/accounts/move.yaml), validated by the engine; each may be left out. */
interface PayInput {
  amount?: number | null;
  payment_date?: string | null;
  journal_id?: number | null;
  communication?: string | null;
}

export const payMove: Action<PayInput> = async ({ trx, def, record, input, user, records }) => {
  const noun = def.label.toLowerCase();
  const kind = kindOf(record.move_type);
  const open = await openLines(trx, [Number(record.id)]);
  if (open.length === 0) throw new ActionRefusedError(`No outstanding ${noun} payment lines found.`);

  const journal = await paymentJournal(trx, Number(record.company_id), input.journal_id ?? undefined);
  const date = input.payment_date ?? (await todayFor(trx, record.company_id));
  const step = stepOf(await trx('currencies').where('id', record.currency_id).first('rounding', 'decimal_places'));
  const due = roundStep(
    open.reduce((sum, line) => sum + Math.abs(Number(line.amount_residual_currency)), 0),
    step,
  );
  // By default, what is due now: every overdue instalment and the next one.
  const next = open.findIndex((line) => String(line.date_maturity ?? date) >= date);
  const dueNow = roundStep(
    open.slice(0, next === -1 ? open.length : next + 1).reduce((sum, line) => sum + Math.abs(Number(line.amount_residual_currency)), 0),
    step,
  );
  // An early-payment discount still on offer: by default the payment takes it, and an amount
  // sent that is exactly the discounted one does.
  const offer = discountOnOffer(record, open, date, step);
  const amount = roundStep(input.amount ?? offer?.amountCurrency ?? dueNow, step);
  if (amount <= 0) throw new ValidationError({ amount: ['The amount field must be at least 0.0001.'] });
  if (amount > due) throw new ValidationError({ amount: [`The amount (${amount}) is more than what remains due on the ${noun} (${due}).`] });
  const discounted = offer !== undefined && amount === offer.amountCurrency;

  // The payment's journal entry: the journal's account against the receivable/payable, in the
  // document's currency at the document's rate.
  const rate = Number(record.invoice_currency_rate) > 0 ? Number(record.invoice_currency_rate) : 1;
  const company = await trx('companies').where('id', record.company_id).first('currency_id');
  const inbound = kind.paymentType === 'inbound';
  const bankCurrency = roundStep(inbound ? amount : -amount, step);
  const bankBalance = discounted ? (inbound ? offer.balance : -offer.balance) : roundTo(bankCurrency / rate, 4);
  // Taking the discount settles the whole instalment: the payment and the discount together.
  const discountLines = discounted ? await bookedDiscount(trx, record, open, { currency: bankCurrency, balance: bankBalance }, step) : [];
  const settledCurrency = roundStep(bankCurrency + discountLines.reduce((sum, line) => sum + line.amount_currency, 0), step);
  const settledBalance = roundTo(bankBalance + discountLines.reduce((sum, line) => sum + line.balance, 0), 4);
  const { name, prefix } = await nextMoveName(trx, journal as { id: number; code: string }, Number(record.company_id), date, 'P');
  const now = nowTimestamp();
  // Raw: no resource shows a journal entry (move_type `entry`); its lines and the payment are records, created as such below.
  const [entryId] = await trx('accounts_account_moves').insert({
    journal_id: journal.id,
    company_id: record.company_id,
    move_type: 'entry',
    state: 'posted',
    payment_state: 'not_paid',
    name,
    sequence_prefix: prefix,
    reference: input.communication ?? record.name,
    date,
    partner_id: record.commercial_partner_id ?? record.partner_id,
    commercial_partner_id: record.commercial_partner_id ?? record.partner_id,
    currency_id: record.currency_id,
    invoice_currency_rate: rate,
    amount_total: amount,
    amount_total_signed: Math.abs(bankBalance),
    posted_before: true,
    creator_id: user.id,
    created_at: now,
    updated_at: now,
  });
  const common = {
    move_id: entryId,
    move_name: name,
    parent_state: 'posted',
    journal_id: journal.id,
    company_id: record.company_id,
    company_currency_id: company?.currency_id ?? record.currency_id,
    currency_id: record.currency_id,
    partner_id: record.commercial_partner_id ?? record.partner_id,
    date,
    date_maturity: date,
    creator_id: user.id,
  };
  const counterpartAccount = open[0]!.account_id;
  await records('accounts/journal-items').createMany(
    [
      {
        ...common,
        sort: 1,
        display_type: 'product',
        name: input.communication ?? record.name,
        account_id: journal.default_account_id,
        amount_currency: bankCurrency,
        balance: bankBalance,
        ...debitCredit(bankBalance),
        amount_residual: 0,
        amount_residual_currency: 0,
      },
      ...discountLines.map((line, index) => ({
        ...common,
        sort: 2 + index,
        display_type: 'product',
        name: `Early Payment Discount: ${record.name}`,
        ...line,
        ...debitCredit(line.balance),
        amount_residual: 0,
        amount_residual_currency: 0,
      })),
      {
        ...common,
        sort: 2 + discountLines.length,
        display_type: 'payment_term',
        name: input.communication ?? record.name,
        account_id: counterpartAccount,
        amount_currency: -settledCurrency,
        balance: -settledBalance,
        ...debitCredit(-settledBalance),
        amount_residual: -settledBalance,
        amount_residual_currency: -settledCurrency,
      },
    ],
    { system: true },
  );
  const paymentId = await records('accounts/payments').create(
    {
      name,
      state: 'paid',
      payment_type: kind.paymentType,
      partner_type: kind.partnerType,
      memo: input.communication ?? record.name,
      date,
      amount,
      amount_company_currency_signed: bankBalance,
      journal_id: journal.id,
      company_id: record.company_id,
      partner_id: record.commercial_partner_id ?? record.partner_id,
      currency_id: record.currency_id,
      move_id: entryId,
      outstanding_account_id: journal.default_account_id,
      destination_account_id: counterpartAccount,
      is_reconciled: false,
    },
    { system: true },
  );
  // Raw: the document's own `payments` link (its manyToMany's pivot), which no field writes.
  await trx('accounts_accounts_move_payment').insert({ invoice_id: record.id, payment_id: paymentId });
  await reconcile(trx, open, await openLines(trx, [Number(entryId)]), { companyId: Number(record.company_id), userId: user.id, limit: Math.abs(settledCurrency) });
  await refreshResiduals(trx, [Number(record.id), Number(entryId)]);
  await markPaymentsMatched(trx, [Number(entryId)]);
};

type Trx = Parameters<Action>[0]['trx'];
type Row = Record<string, any>;

/**
 * What is left to pay on `date` when the document's early-payment discount still holds: an invoice
 * or bill not paid at all yet, every open instalment offering a discount until that date or later.
 */
function discountOnOffer(record: Row, open: Row[], date: string, step: number): { amountCurrency: number; balance: number } | undefined {
  if (!DISCOUNTED_TYPES.has(record.move_type)) return undefined;
  const untouched = open.every((line) => Number(line.amount_residual_currency) === Number(line.amount_currency));
  const holds = open.every((line) => line.discount_date != null && String(line.discount_date).slice(0, 10) >= date);
  if (!untouched || !holds) return undefined;
  return {
    amountCurrency: roundStep(
      open.reduce((sum, line) => sum + Math.abs(Number(line.discount_amount_currency)), 0),
      step,
    ),
    balance: roundTo(
      open.reduce((sum, line) => sum + Math.abs(Number(line.discount_balance)), 0),
      4,
    ),
  };
}

/**
 * The lines that book a discount taken: the instalments' residual less the payment, on the
 * company's discount account (granted to a customer: its loss account; taken from a vendor: its
 * gain account) and, when the term's discount includes the taxes, on the tax lines' accounts.
 */
async function bookedDiscount(trx: Trx, record: Row, open: Row[], bank: { currency: number; balance: number }, step: number): Promise<DiscountPart[]> {
  const term = await trx('accounts_payment_terms').where('id', record.invoice_payment_term_id).first('discount_percentage', 'early_pay_discount');
  const company = await trx('companies as c')
    .leftJoin('currencies as cur', 'cur.id', 'c.currency_id')
    .where('c.id', record.company_id)
    .first('c.early_pay_discount_loss_account_id as loss', 'c.early_pay_discount_gain_account_id as gain', 'cur.rounding', 'cur.decimal_places');
  const granted = bank.currency > 0;
  const accountId = granted ? company?.loss : company?.gain;
  if (accountId == null) {
    const field = granted ? 'early_pay_discount_loss_account_id' : 'early_pay_discount_gain_account_id';
    throw new ValidationError({
      amount: [`This payment takes the early payment discount, and the company has no account to book it on: set its ${field} (support/companies), or pay the whole amount due.`],
    });
  }
  const discount: EarlyDiscount = { percentage: Number(term?.discount_percentage ?? 0), days: 0, computation: term?.early_pay_discount === 'excluded' ? 'excluded' : 'included' };
  const residual = (key: 'amount_residual_currency' | 'amount_residual') => open.reduce((sum, line) => sum + Number(line[key]), 0);
  const companyStep = stepOf(company);
  const writeOff = { currency: roundStep(residual('amount_residual_currency') - bank.currency, step), balance: roundStep(residual('amount_residual') - bank.balance, companyStep) };
  const taxLines = await trx('accounts_account_move_lines')
    .where({ move_id: record.id, display_type: 'tax' })
    .orderBy('sort')
    .select('account_id', 'tax_line_id', 'tax_repartition_line_id', 'amount_currency', 'balance');
  return discountParts(
    discount,
    writeOff,
    taxLines.map((line) => ({ ...line, amount_currency: Number(line.amount_currency), balance: Number(line.balance) })),
    Number(accountId),
    { step, companyStep },
  );
}

/** The journal given (a bank or cash journal of the document's company), else the company's first. */
async function paymentJournal(trx: Trx, companyId: number, journalId?: number): Promise<Record<string, any>> {
  const journals = trx('accounts_journals')
    .whereIn('type', ['bank', 'cash'])
    .where((q) => q.where('company_id', companyId).orWhereNull('company_id'));
  if (journalId !== undefined) {
    const journal = await journals.clone().where('id', journalId).first();
    if (!journal) throw new ValidationError({ journal_id: ["The selected journal id is invalid: it must be a bank or cash journal of the document's company."] });
    if (!journal.default_account_id) throw new ValidationError({ journal_id: ['The selected journal has no default account to book the payment on.'] });
    return journal;
  }
  const journal = await journals.whereNotNull('default_account_id').orderBy('sort').orderBy('id').first();
  if (!journal) throw new ActionRefusedError('Unable to determine payment journal or payment method line.');
  return journal;
}
