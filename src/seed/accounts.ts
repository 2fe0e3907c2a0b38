// The accounts module's standard data for the first company ("My Company"): a minimal chart of
// accounts (with the company's early-payment discount accounts), the five journals, a tax group with the default 15 % sales and purchase taxes (with
// their repartition lines: the tax on Tax Received or Tax Paid), the
// ten standard payment terms of the original installation (reference §4) with their due terms,
// and the eleven incoterms (shared by every company).
//
// Each table is seeded only while it is empty (trashed rows count): these are the users' data
// once installed, so an account, tax or payment term changed or deleted must not come back at the
// next start.
import type { Knex } from 'knex';
import { nowTimestamp } from '../../engine/index.ts';

type AccountType = 'asset_receivable' | 'liability_payable' | 'income' | 'income_other' | 'expense' | 'asset_cash' | 'asset_current' | 'liability_current';

/** [code, name, account_type, reconcile] */
export const STANDARD_ACCOUNTS: Array<[code: string, name: string, type: AccountType, reconcile: boolean]> = [
  ['101000', 'Current Assets', 'asset_current', false],
  ['101401', 'Bank', 'asset_cash', false],
  ['101501', 'Cash', 'asset_cash', false],
  ['121000', 'Account Receivable', 'asset_receivable', true],
  ['131000', 'Tax Paid', 'asset_current', false],
  ['211000', 'Account Payable', 'liability_payable', true],
  ['251000', 'Tax Received', 'liability_current', false],
  ['400000', 'Product Sales', 'income', false],
  ['600000', 'Expenses', 'expense', false],
  // Early-payment discounts granted to customers and taken from vendors (the company's own settings).
  ['642000', 'Cash Discount Loss', 'expense', false],
  ['442000', 'Cash Discount Gain', 'income_other', false],
];

/** The company's early-payment discount accounts, by code. */
const EARLY_PAY_DISCOUNT_ACCOUNTS = { early_pay_discount_loss_account_id: '642000', early_pay_discount_gain_account_id: '442000' };

/** [name, code, type, default account's code] */
export const STANDARD_JOURNALS: Array<[name: string, code: string, type: 'sale' | 'purchase' | 'bank' | 'cash' | 'general', account: string | null]> = [
  ['Customer Invoices', 'INV', 'sale', '400000'],
  ['Vendor Bills', 'BILL', 'purchase', '600000'],
  ['Bank', 'BANK', 'bank', '101401'],
  ['Cash', 'CASH', 'cash', '101501'],
  ['Miscellaneous', 'MISC', 'general', null],
];

export const STANDARD_TAX_GROUP = 'Tax 15%';

/** The default taxes: 15 % on sales and on purchases, added to the price. */
export const STANDARD_TAXES: Array<{ name: string; type_tax_use: 'sale' | 'purchase'; amount_type: 'percent'; amount: number; invoice_label: string; account: string }> = [
  { name: '15%', type_tax_use: 'sale', amount_type: 'percent', amount: 15, invoice_label: 'Tax 15%', account: '251000' },
  { name: '15%', type_tax_use: 'purchase', amount_type: 'percent', amount: 15, invoice_label: 'Tax 15%', account: '131000' },
];

/** Incoterms 2020, as the original seeds them: [code, name in capitals]. */
export const STANDARD_INCOTERMS: Array<[code: string, name: string]> = [
  ['EXW', 'EX WORKS'],
  ['FCA', 'FREE CARRIER'],
  ['FAS', 'FREE ALONGSIDE SHIP'],
  ['FOB', 'FREE ON BOARD'],
  ['CFR', 'COST AND FREIGHT'],
  ['CIF', 'COST, INSURANCE AND FREIGHT'],
  ['CPT', 'CARRIAGE PAID TO'],
  ['CIP', 'CARRIAGE AND INSURANCE PAID TO'],
  ['DPU', 'DELIVERED AT PLACE UNLOADED'],
  ['DAP', 'DELIVERED AT PLACE'],
  ['DDP', 'DELIVERED DUTY PAID'],
];

type DelayType = 'days_after' | 'days_after_end_of_month' | 'days_after_end_of_next_month' | 'days_end_of_month_no_the';

export interface StandardPaymentTerm {
  name: string;
  note: string;
  early_discount?: { percentage: number; days: number };
  /** [percent, nb_days, delay_type] */
  dueTerms: Array<[percent: number, nbDays: number, delayType: DelayType]>;
}

/** The original's PaymentTermSeeder and PaymentDueTermSeeder, in their order (ids 1–10 on an empty database). */
export const STANDARD_PAYMENT_TERMS: StandardPaymentTerm[] = [
  { name: 'Immediate Payment', note: '<p>Payment terms: Immediate Payment</p>', dueTerms: [[100, 0, 'days_after']] },
  { name: '15 Days', note: '<p>Payment terms: 15 Days</p>', dueTerms: [[100, 15, 'days_after']] },
  { name: '21 Days', note: '<p>Payment terms: 21 Days</p>', dueTerms: [[100, 21, 'days_after']] },
  { name: '30 Days', note: '<p>Payment terms: 30 Days</p>', dueTerms: [[100, 30, 'days_after']] },
  { name: '45 Days', note: '<p>Payment terms: 45 Days</p>', dueTerms: [[100, 45, 'days_after']] },
  // 30 % as the original seeds it (reference §4).
  { name: 'End of Following Month', note: '<p>Payment terms: End of Following Month</p>', dueTerms: [[30, 0, 'days_after_end_of_next_month']] },
  { name: '10 Days after End of Next Month', note: '<p>Payment terms: 10 Days after End of Next Month</p>', dueTerms: [[100, 10, 'days_after_end_of_next_month']] },
  {
    name: '30% Now, Balance 60 Days',
    note: '<p>Payment terms: 30% Now, Balance 60 Days</p>',
    dueTerms: [
      [30, 0, 'days_after'],
      [70, 60, 'days_after'],
    ],
  },
  {
    name: '2/7 Net 30',
    note: '<p>Payment terms: 30 Days, 2% Early Payment Discount under 7 days</p>',
    early_discount: { percentage: 2, days: 7 },
    dueTerms: [[100, 30, 'days_after']],
  },
  { name: '90 Days, on the 10th', note: '<p>Payment terms: 90 days, on the 10th</p>', dueTerms: [[100, 90, 'days_end_of_month_no_the']] },
];

/**
 * A tax's repartition lines as Odoo gives a new tax: 100 % of the base and 100 % of the amount,
 * for invoices and for refunds, the amount on `accountId` (none: the account of the line taxed).
 */
export function defaultRepartitionLines(taxId: number, companyId: number | null, accountId: number | null, stamp: Record<string, unknown>) {
  return (['invoice', 'refund'] as const).flatMap((document_type, index) =>
    (['base', 'tax'] as const).map((repartition_type, position) => ({
      tax_id: taxId,
      company_id: companyId,
      document_type,
      repartition_type,
      factor_percent: 100,
      factor: 1,
      account_id: repartition_type === 'tax' ? accountId : null,
      sort: index * 2 + position + 1,
      ...stamp,
    })),
  );
}

/** Seeds what is missing of the accounts module's standard data; returns the rows added. */
export async function seedAccounts(knex: Knex, creatorId: number | null): Promise<number> {
  const company = await knex('companies').orderBy('id').first('id');
  if (!company) return 0;
  const now = nowTimestamp();
  const stamp = { creator_id: creatorId, created_at: now, updated_at: now };
  let added = 0;

  await knex.transaction(async (trx) => {
    if (!(await trx('accounts_accounts').first('id'))) {
      for (const [code, name, account_type, reconcile] of STANDARD_ACCOUNTS) {
        await trx('accounts_accounts').insert({ code, name, account_type, reconcile, deprecated: false, non_trade: false, company_id: company.id, ...stamp });
      }
      added += STANDARD_ACCOUNTS.length;
      const accountIds = new Map<string, number>((await trx('accounts_accounts').select('id', 'code')).map((a) => [a.code, Number(a.id)]));
      await trx('companies')
        .where('id', company.id)
        .update(Object.fromEntries(Object.entries(EARLY_PAY_DISCOUNT_ACCOUNTS).map(([field, code]) => [field, accountIds.get(code) ?? null])));
    }

    if (!(await trx('accounts_journals').first('id'))) {
      const accountIds = new Map<string, number>((await trx('accounts_accounts').select('id', 'code')).map((a) => [a.code, Number(a.id)]));
      for (const [index, [name, code, type, account]] of STANDARD_JOURNALS.entries()) {
        await trx('accounts_journals').insert({
          name,
          code,
          type,
          default_account_id: (account && accountIds.get(account)) ?? null,
          company_id: company.id,
          sort: index + 1,
          refund_order: type === 'sale' || type === 'purchase',
          payment_order: false,
          show_on_dashboard: type !== 'general',
          ...stamp,
        });
      }
      added += STANDARD_JOURNALS.length;
    }

    if (!(await trx('accounts_taxes').first('id'))) {
      let group = await trx('accounts_tax_groups').where('name', STANDARD_TAX_GROUP).first('id');
      if (!group) {
        const [id] = await trx('accounts_tax_groups').insert({ name: STANDARD_TAX_GROUP, sort: 1, company_id: company.id, ...stamp });
        group = { id };
        added++;
      }
      const accountIds = new Map<string, number>((await trx('accounts_accounts').select('id', 'code')).map((a) => [a.code, Number(a.id)]));
      for (const [index, { account, ...tax }] of STANDARD_TAXES.entries()) {
        const accountId = accountIds.get(account) ?? null;
        const [taxId] = await trx('accounts_taxes').insert({
          ...tax,
          account_id: accountId,
          price_include: false,
          include_base_amount: false,
          is_base_affected: true,
          is_active: true,
          sort: index + 1,
          tax_group_id: group.id,
          company_id: company.id,
          ...stamp,
        });
        await trx('accounts_tax_partition_lines').insert(defaultRepartitionLines(Number(taxId), company.id, accountId, stamp));
        added += 4;
      }
      added += STANDARD_TAXES.length;
    }

    if (!(await trx('accounts_payment_terms').first('id'))) {
      for (const [index, term] of STANDARD_PAYMENT_TERMS.entries()) {
        const [id] = await trx('accounts_payment_terms').insert({
          name: term.name,
          note: term.note,
          company_id: company.id,
          sort: index + 1,
          display_on_invoice: true,
          early_discount: term.early_discount !== undefined,
          discount_percentage: term.early_discount?.percentage ?? 2,
          discount_days: term.early_discount?.days ?? 10,
          early_pay_discount: 'included',
          ...stamp,
        });
        for (const [value_amount, nb_days, delay_type] of term.dueTerms) {
          await trx('accounts_payment_due_terms').insert({ payment_id: Number(id), value: 'percent', value_amount, delay_type, nb_days, days_next_month: 10, ...stamp });
        }
        added += 1 + term.dueTerms.length;
      }
    }

    if (!(await trx('accounts_incoterms').first('id'))) {
      for (const [code, name] of STANDARD_INCOTERMS) await trx('accounts_incoterms').insert({ code, name, ...stamp });
      added += STANDARD_INCOTERMS.length;
    }
  });
  return added;
}
