// `pay` (reference-o2c-p2p §2.10): registers a payment of a posted document and settles its
// receivable or payable. The payment is posted in a bank or cash journal — the journal's account
// against the receivable/payable — and matched with the document's instalments, earliest due
// first. Unlike the original, an amount above what remains due is refused: the excess would sit
// unmatched on the partner's account with nobody told.
import { ActionRefusedError, ValidationError, nowTimestamp, today, type Action } from '../../../../engine/index.ts';
import { roundStep, roundTo, stepOf } from '../money.ts';
import { debitCredit } from './compute-move.ts';
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
  const date = input.payment_date ?? today();
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
  const amount = roundStep(input.amount ?? dueNow, step);
  if (amount <= 0) throw new ValidationError({ amount: ['The amount field must be at least 0.0001.'] });
  if (amount > due) throw new ValidationError({ amount: [`The amount (${amount}) is more than what remains due on the ${noun} (${due}).`] });

  // The payment's journal entry: the journal's account against the receivable/payable, in the
  // document's currency at the document's rate.
  const rate = Number(record.invoice_currency_rate) > 0 ? Number(record.invoice_currency_rate) : 1;
  const company = await trx('companies').where('id', record.company_id).first('currency_id');
  const inbound = kind.paymentType === 'inbound';
  const bankCurrency = roundStep(inbound ? amount : -amount, step);
  const bankBalance = roundTo(bankCurrency / rate, 4);
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
      {
        ...common,
        sort: 2,
        display_type: 'payment_term',
        name: input.communication ?? record.name,
        account_id: counterpartAccount,
        amount_currency: -bankCurrency,
        balance: -bankBalance,
        ...debitCredit(-bankBalance),
        amount_residual: -bankBalance,
        amount_residual_currency: -bankCurrency,
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
  await reconcile(trx, open, await openLines(trx, [Number(entryId)]), { companyId: Number(record.company_id), userId: user.id, limit: amount });
  await refreshResiduals(trx, [Number(record.id), Number(entryId)]);
  await markPaymentsMatched(trx, [Number(entryId)]);
};

/** The journal given (a bank or cash journal of the document's company), else the company's first. */
async function paymentJournal(trx: Parameters<Action>[0]['trx'], companyId: number, journalId?: number): Promise<Record<string, any>> {
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
