// The four kinds of accounting documents (reference-o2c-p2p §2): which way their amounts go, which
// journal and account they use, and what reverses them.
import type { Knex } from 'knex';

export type DocumentType = 'out_invoice' | 'out_refund' | 'in_invoice' | 'in_refund';

export interface DocumentKind {
  /**
   * −1 when the product lines are credits (sales revenue, vendor refunds), +1 when they are
   * debits (expenses, customer credit notes). The receivable or payable line takes the other side.
   */
  direction: 1 | -1;
  journalType: 'sale' | 'purchase';
  /** The account type of the receivable (customers) or payable (vendors) line. */
  counterpart: 'asset_receivable' | 'liability_payable';
  /** The account a product line books to: its income (sales) or expense (purchases) account. */
  productAccount: 'property_account_income_id' | 'property_account_expense_id';
  /** What reverses it, when it can be reversed. */
  reversedBy?: DocumentType;
  /** A payment of it comes in (customer invoices, vendor refunds) or goes out. */
  paymentType: 'inbound' | 'outbound';
  partnerType: 'customer' | 'supplier';
  /** Which rank a confirmation raises: how partners become customers and vendors. */
  rank: 'customer_rank' | 'supplier_rank';
  /** The document's resource, for answers and the change feed. */
  resource: string;
}

export const KINDS: Record<DocumentType, DocumentKind> = {
  out_invoice: {
    direction: -1,
    journalType: 'sale',
    counterpart: 'asset_receivable',
    productAccount: 'property_account_income_id',
    reversedBy: 'out_refund',
    paymentType: 'inbound',
    partnerType: 'customer',
    rank: 'customer_rank',
    resource: 'accounts/invoices',
  },
  out_refund: {
    direction: 1,
    journalType: 'sale',
    counterpart: 'asset_receivable',
    productAccount: 'property_account_income_id',
    paymentType: 'outbound',
    partnerType: 'customer',
    rank: 'customer_rank',
    resource: 'accounts/credit-notes',
  },
  in_invoice: {
    direction: 1,
    journalType: 'purchase',
    counterpart: 'liability_payable',
    productAccount: 'property_account_expense_id',
    reversedBy: 'in_refund',
    paymentType: 'outbound',
    partnerType: 'supplier',
    rank: 'supplier_rank',
    resource: 'accounts/bills',
  },
  in_refund: {
    direction: -1,
    journalType: 'purchase',
    counterpart: 'liability_payable',
    productAccount: 'property_account_expense_id',
    paymentType: 'inbound',
    partnerType: 'supplier',
    rank: 'supplier_rank',
    resource: 'accounts/refunds',
  },
};

export function kindOf(moveType: string): DocumentKind {
  const kind = KINDS[moveType as DocumentType];
  if (!kind) throw new Error(`not an invoice, credit note, bill or refund: ${moveType}`);
  return kind;
}

/** The journal a document of this kind goes to: the one given when it fits, else the company's first that does. */
export async function fittingJournal(trx: Knex.Transaction, kind: DocumentKind, companyId: number, journalId?: number): Promise<Record<string, any> | undefined> {
  if (journalId !== undefined) {
    const given = await trx('accounts_journals').where('id', journalId).first();
    if (given && given.type === kind.journalType) return given;
  }
  return trx('accounts_journals')
    .where('type', kind.journalType)
    .where((q) => q.where('company_id', companyId).orWhereNull('company_id'))
    .orderBy('sort')
    .orderBy('id')
    .first();
}
