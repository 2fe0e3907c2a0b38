// Accounting documents (reference-o2c-p2p §2, §7.1): invoices, credit notes, bills and refunds are
// rows of accounts_account_moves told apart by move_type; their journal items (the product lines
// the client sends, and the tax, rounding and receivable/payable lines computed from them) are
// rows of accounts_account_move_lines. Payments, with their own journal entry, settle documents
// through partial reconciliations between a document's receivable/payable line and the payment's.
//
// Kept from the original's tables: names, columns and rules of what the API reads and writes.
// Left out: the payment register wizard's tables (a payment is registered directly), the reversal
// tables (a reversal points at its original with reversed_entry_id), full reconciliations, bank
// statements. A document made from a sales or purchase order names it in sale_order_id or
// purchase_order_id, and its lines their order lines (the original's pivots allowed several
// orders per document, which nothing in the API creates).
import type { Knex } from 'knex';
import { creator, foreignId, timestamps } from './helpers.ts';

/** A foreign key refusing to delete a referenced row, answered 409 on both databases (see 20260104000001). */
function restrictedId(t: Knex.CreateTableBuilder, column: string, table: string) {
  return t.integer(column).unsigned().references('id').inTable(table).index();
}

const AMOUNTS = [
  'amount_untaxed',
  'amount_tax',
  'amount_total',
  'amount_residual',
  'amount_untaxed_signed',
  'amount_untaxed_in_currency_signed',
  'amount_tax_signed',
  'amount_total_signed',
  'amount_total_in_currency_signed',
  'amount_residual_signed',
];

const LINE_AMOUNTS = ['debit', 'credit', 'balance', 'amount_currency', 'tax_base_amount', 'amount_residual', 'amount_residual_currency', 'price_subtotal', 'price_total'];

export async function up(knex: Knex): Promise<void> {
  // Whether a product is billed on the quantity ordered or received (Odoo's purchase_method);
  // null: services and consumables on order, goods on receipt.
  await knex.schema.alterTable('products_products', (t) => {
    t.string('purchase_method', 20).nullable();
  });
  // Where a tax's amount is booked; without one, on the account of the line it taxes.
  await knex.schema.alterTable('accounts_taxes', (t) => {
    restrictedId(t, 'account_id', 'accounts_accounts').nullable();
  });
  // The standard taxes of an existing installation: sales tax received, purchase tax paid.
  for (const [use, code] of [
    ['sale', '251000'],
    ['purchase', '131000'],
  ]) {
    const account = await knex('accounts_accounts').where('code', code).first('id');
    if (account) await knex('accounts_taxes').where('type_tax_use', use).whereNull('account_id').update({ account_id: account.id });
  }

  await knex.schema.createTable('accounts_account_moves', (t) => {
    t.increments('id');
    t.integer('sort').nullable();
    restrictedId(t, 'journal_id', 'accounts_journals').notNullable();
    restrictedId(t, 'company_id', 'companies').notNullable();
    // out_invoice, out_refund, in_invoice, in_refund, entry (a payment's journal entry)
    t.string('move_type', 20).notNullable().index();
    t.string('state', 20).notNullable().defaultTo('draft').index();
    // not_paid, partial, paid, reversed (in_payment is the original's, never produced)
    t.string('payment_state', 20).notNullable().defaultTo('not_paid').index();
    // Given at confirmation, from the journal's sequence for the year: INV/2026/00001.
    t.string('name', 255).nullable().index();
    t.string('sequence_prefix', 255).nullable();
    t.string('reference', 255).nullable();
    t.string('payment_reference', 255).nullable();
    t.string('invoice_origin', 255).nullable();
    t.string('invoice_partner_display_name', 255).nullable();
    t.string('incoterm_location', 255).nullable();
    t.text('narration').nullable();
    t.date('date').notNullable().index();
    t.date('invoice_date').nullable().index();
    t.date('invoice_date_due').nullable().index();
    t.date('delivery_date').nullable();
    foreignId(t, 'partner_id', 'partners_partners').nullable();
    foreignId(t, 'commercial_partner_id', 'partners_partners').nullable();
    foreignId(t, 'partner_shipping_id', 'partners_partners').nullable();
    restrictedId(t, 'currency_id', 'currencies').notNullable();
    restrictedId(t, 'invoice_payment_term_id', 'accounts_payment_terms').nullable();
    restrictedId(t, 'fiscal_position_id', 'accounts_fiscal_positions').nullable();
    foreignId(t, 'invoice_user_id', 'users', 'SET NULL').nullable();
    foreignId(t, 'invoice_incoterm_id', 'accounts_incoterms', 'SET NULL').nullable();
    foreignId(t, 'invoice_cash_rounding_id', 'accounts_cash_roundings', 'SET NULL').nullable();
    foreignId(t, 'reversed_entry_id', 'accounts_account_moves', 'SET NULL').nullable();
    foreignId(t, 'sale_order_id', 'sales_orders', 'SET NULL').nullable();
    foreignId(t, 'purchase_order_id', 'purchases_orders', 'SET NULL').nullable();
    foreignId(t, 'campaign_id', 'utm_campaigns', 'SET NULL').nullable();
    foreignId(t, 'source_id', 'utm_sources', 'SET NULL').nullable();
    foreignId(t, 'medium_id', 'utm_mediums', 'SET NULL').nullable();
    t.decimal('invoice_currency_rate', 15, 6).notNullable().defaultTo(1);
    for (const column of AMOUNTS) t.decimal(column, 15, 4).notNullable().defaultTo(0);
    t.boolean('checked').notNullable().defaultTo(false);
    t.boolean('posted_before').notNullable().defaultTo(false);
    creator(t);
    timestamps(t);
    // One number per document of a journal; drafts have none yet (NULLs do not collide).
    t.unique(['journal_id', 'name'], { indexName: 'accounts_account_moves_journal_id_name_unique' });
  });

  await knex.schema.createTable('accounts_account_move_lines', (t) => {
    t.increments('id');
    t.integer('sort').nullable();
    foreignId(t, 'move_id', 'accounts_account_moves', 'CASCADE').notNullable();
    // product (sent by the client), tax, rounding, payment_term (receivable/payable)
    t.string('display_type', 20).notNullable().defaultTo('product');
    t.string('parent_state', 20).notNullable().defaultTo('draft');
    t.string('move_name', 255).nullable();
    t.text('name').nullable();
    restrictedId(t, 'journal_id', 'accounts_journals').nullable();
    restrictedId(t, 'company_id', 'companies').nullable();
    restrictedId(t, 'company_currency_id', 'currencies').nullable();
    restrictedId(t, 'currency_id', 'currencies').nullable();
    restrictedId(t, 'account_id', 'accounts_accounts').nullable();
    foreignId(t, 'partner_id', 'partners_partners', 'SET NULL').nullable();
    restrictedId(t, 'product_id', 'products_products').nullable();
    restrictedId(t, 'uom_id', 'unit_of_measures').nullable();
    restrictedId(t, 'tax_line_id', 'accounts_taxes').nullable();
    foreignId(t, 'tax_group_id', 'accounts_tax_groups', 'SET NULL').nullable();
    foreignId(t, 'sale_order_line_id', 'sales_order_lines', 'SET NULL').nullable();
    foreignId(t, 'purchase_order_line_id', 'purchases_order_lines', 'SET NULL').nullable();
    t.date('date').nullable();
    t.date('invoice_date').nullable();
    t.date('date_maturity').nullable();
    t.decimal('quantity', 15, 4).nullable();
    t.decimal('price_unit', 15, 4).nullable();
    t.decimal('discount', 5, 2).notNullable().defaultTo(0);
    for (const column of LINE_AMOUNTS) t.decimal(column, 15, 4).notNullable().defaultTo(0);
    t.boolean('reconciled').notNullable().defaultTo(false);
    creator(t);
    timestamps(t, { indexed: false });
    t.index(['move_id', 'display_type']);
  });

  await knex.schema.createTable('accounts_accounts_move_line_taxes', (t) => {
    foreignId(t, 'move_line_id', 'accounts_account_move_lines', 'CASCADE').notNullable();
    restrictedId(t, 'tax_id', 'accounts_taxes').notNullable();
    t.primary(['move_line_id', 'tax_id']);
  });

  await knex.schema.createTable('accounts_account_payments', (t) => {
    t.increments('id');
    // From the payment journal's sequence: PBANK/2026/00001.
    t.string('name', 255).nullable().index();
    t.string('state', 20).notNullable().defaultTo('paid').index();
    t.string('payment_type', 20).notNullable().index(); // inbound, outbound
    t.string('partner_type', 20).notNullable(); // customer, supplier
    t.string('memo', 255).nullable();
    t.date('date').notNullable().index();
    t.decimal('amount', 15, 4).notNullable();
    t.decimal('amount_company_currency_signed', 15, 4).notNullable();
    restrictedId(t, 'journal_id', 'accounts_journals').notNullable();
    restrictedId(t, 'company_id', 'companies').notNullable();
    foreignId(t, 'partner_id', 'partners_partners').nullable();
    restrictedId(t, 'currency_id', 'currencies').notNullable();
    // The payment's journal entry: its bank account against the receivable/payable.
    foreignId(t, 'move_id', 'accounts_account_moves', 'SET NULL').nullable();
    restrictedId(t, 'outstanding_account_id', 'accounts_accounts').nullable();
    restrictedId(t, 'destination_account_id', 'accounts_accounts').nullable();
    t.boolean('is_reconciled').notNullable().defaultTo(false);
    creator(t);
    timestamps(t);
  });

  // Which documents a payment paid (the original's accounts_accounts_move_payment).
  await knex.schema.createTable('accounts_accounts_move_payment', (t) => {
    foreignId(t, 'invoice_id', 'accounts_account_moves', 'CASCADE').notNullable();
    foreignId(t, 'payment_id', 'accounts_account_payments', 'CASCADE').notNullable();
    t.primary(['invoice_id', 'payment_id']);
  });

  // What settles what: an amount of a debit line matched with a credit line.
  await knex.schema.createTable('accounts_partial_reconciles', (t) => {
    t.increments('id');
    foreignId(t, 'debit_move_id', 'accounts_account_move_lines', 'CASCADE').notNullable();
    foreignId(t, 'credit_move_id', 'accounts_account_move_lines', 'CASCADE').notNullable();
    t.decimal('amount', 15, 4).notNullable();
    t.decimal('debit_amount_currency', 15, 4).notNullable();
    t.decimal('credit_amount_currency', 15, 4).notNullable();
    t.date('max_date').nullable();
    restrictedId(t, 'company_id', 'companies').nullable();
    creator(t);
    timestamps(t, { indexed: false });
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'accounts_partial_reconciles',
    'accounts_accounts_move_payment',
    'accounts_account_payments',
    'accounts_accounts_move_line_taxes',
    'accounts_account_move_lines',
    'accounts_account_moves',
  ]) {
    await knex.schema.dropTable(table);
  }
  await knex.schema.alterTable('accounts_taxes', (t) => {
    t.dropForeign(['account_id']);
    t.dropColumn('account_id');
  });
  await knex.schema.alterTable('products_products', (t) => {
    t.dropColumn('purchase_method');
  });
}
