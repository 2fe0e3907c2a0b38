// The rest of the accounting master data (issue 31): incoterms, cash roundings, and the accounting
// columns of partners (customers, vendors) and of product categories.
//
// Deliberate differences from the original (reference-o2c-p2p §7.2):
// - the company-dependent properties (`partners_partner_company_properties`,
//   `products_category_company_accounts`) are not created: the properties live on the partner and
//   category rows, one value per record whatever the company;
// - the two payment-method-line properties are left out: there is no accounts_payment_method_lines
//   table to point at;
// - the partner flags the original keeps as uncast strings (`autopost_bills`,
//   `ignore_abnormal_invoice_date`, `ignore_abnormal_invoice_amount`) are booleans, and
//   `credit_limit` is a decimal like `debit_limit`.
//
// SQLite adds a foreign key to an existing table by rebuilding it. Outside a transaction knex
// switches foreign_keys off for the rebuild; inside one it cannot, and dropping the old partners
// table would cascade into the tables that point at it. Hence no transaction here (as in
// 20260104000003).
import type { Knex } from 'knex';
import { creator, foreignId, softDeletes, timestamps } from './helpers.ts';

export const config = { transaction: false };

/** The partner's accounting properties: [column, table]; set to null when the target goes. */
const PARTNER_PROPERTIES: Array<[column: string, table: string]> = [
  ['property_account_payable_id', 'accounts_accounts'],
  ['property_account_receivable_id', 'accounts_accounts'],
  ['property_account_position_id', 'accounts_fiscal_positions'],
  ['property_payment_term_id', 'accounts_payment_terms'],
  ['property_supplier_payment_term_id', 'accounts_payment_terms'],
];

const CATEGORY_PROPERTIES = ['property_account_income_id', 'property_account_expense_id', 'property_account_down_payment_id'];

const PARTNER_STRINGS = ['invoice_warning', 'invoice_sending_method', 'invoice_edi_format_store', 'peppol_endpoint', 'peppol_eas', 'sale_warn', 'sale_warn_msg'];
const PARTNER_FLAGS = ['autopost_bills', 'ignore_abnormal_invoice_date', 'ignore_abnormal_invoice_amount'];
const PARTNER_INTEGERS = ['message_bounce', 'trust', 'invoice_warn_msg'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('accounts_incoterms', (t) => {
    t.increments('id');
    t.string('code', 3).notNullable().index();
    t.string('name', 255).notNullable().index();
    creator(t);
    timestamps(t);
    softDeletes(t);
  });

  await knex.schema.createTable('accounts_cash_roundings', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.string('strategy', 20).notNullable(); // biggest_tax, add_invoice_line
    t.string('rounding_method', 10).notNullable(); // UP, DOWN, HALF-UP
    t.decimal('rounding', 15, 4).notNullable().defaultTo(0).index();
    foreignId(t, 'profit_account_id', 'accounts_accounts', 'SET NULL').nullable();
    foreignId(t, 'loss_account_id', 'accounts_accounts', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
  });

  // Ranks say whether a partner is a customer (customer_rank > 0) or a vendor (supplier_rank > 0).
  await knex.schema.alterTable('partners_partners', (t) => {
    t.integer('customer_rank').nullable().index();
    t.integer('supplier_rank').nullable().index();
    for (const column of PARTNER_INTEGERS) t.integer(column).nullable();
    for (const column of PARTNER_STRINGS) t.string(column, 255).nullable();
    for (const column of PARTNER_FLAGS) t.boolean(column).nullable();
    t.decimal('credit_limit', 16, 2).nullable();
    t.decimal('debit_limit', 16, 2).nullable();
    t.text('comment').nullable();
    for (const [column, table] of PARTNER_PROPERTIES) foreignId(t, column, table, 'SET NULL').nullable();
  });

  await knex.schema.alterTable('products_categories', (t) => {
    for (const column of CATEGORY_PROPERTIES) foreignId(t, column, 'accounts_accounts', 'SET NULL').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('products_categories', (t) => {
    for (const column of CATEGORY_PROPERTIES) t.dropForeign([column]);
  });
  await knex.schema.alterTable('products_categories', (t) => {
    for (const column of CATEGORY_PROPERTIES) t.dropIndex([column]);
    t.dropColumns(...CATEGORY_PROPERTIES);
  });
  await knex.schema.alterTable('partners_partners', (t) => {
    for (const [column] of PARTNER_PROPERTIES) t.dropForeign([column]);
  });
  await knex.schema.alterTable('partners_partners', (t) => {
    for (const column of ['customer_rank', 'supplier_rank', ...PARTNER_PROPERTIES.map(([column]) => column)]) t.dropIndex([column]);
    t.dropColumns(
      'customer_rank',
      'supplier_rank',
      ...PARTNER_INTEGERS,
      ...PARTNER_STRINGS,
      ...PARTNER_FLAGS,
      'credit_limit',
      'debit_limit',
      'comment',
      ...PARTNER_PROPERTIES.map(([column]) => column),
    );
  });
  await knex.schema.dropTable('accounts_cash_roundings');
  await knex.schema.dropTable('accounts_incoterms');
}
