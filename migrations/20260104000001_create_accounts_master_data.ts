// The accounts module's master data: chart of accounts, journals, tax groups and taxes, payment
// terms with their due terms, fiscal positions with their tax and account mappings, and the
// product ↔ tax pivot. Names follow the original installation (accounts_*).
// The foreign keys of products_products.property_account_*_id come in 20260104000003.
import type { Knex } from 'knex';
import { creator, foreignId, softDeletes, timestamps } from './helpers.ts';

/**
 * A foreign key with its index that refuses to delete a row still referenced. Written without
 * ON DELETE (NO ACTION, which MySQL treats as RESTRICT): SQLite reports a RESTRICT violation as
 * SQLITE_CONSTRAINT_TRIGGER, which the API cannot tell from a server fault, and NO ACTION as
 * SQLITE_CONSTRAINT_FOREIGNKEY, which it answers with 409.
 */
function restrictedId(t: Knex.CreateTableBuilder, column: string, table: string) {
  return t.integer(column).unsigned().references('id').inTable(table).index();
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('accounts_accounts', (t) => {
    t.increments('id');
    t.string('code', 64).notNullable().unique('accounts_accounts_code_unique');
    t.string('name', 255).notNullable().index();
    // asset_receivable, liability_payable, income, expense, asset_cash, ... (Odoo's account types)
    t.string('account_type', 40).notNullable().index();
    t.text('note').nullable();
    t.boolean('reconcile').notNullable().defaultTo(false).index();
    t.boolean('deprecated').notNullable().defaultTo(false).index();
    t.boolean('non_trade').notNullable().defaultTo(false);
    foreignId(t, 'currency_id', 'currencies', 'SET NULL').nullable();
    restrictedId(t, 'company_id', 'companies').nullable();
    creator(t);
    timestamps(t);
  });

  await knex.schema.createTable('accounts_journals', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.string('code', 10).notNullable().index();
    t.string('type', 20).notNullable().index(); // sale, purchase, cash, bank, general
    restrictedId(t, 'default_account_id', 'accounts_accounts').nullable();
    restrictedId(t, 'suspense_account_id', 'accounts_accounts').nullable();
    restrictedId(t, 'profit_account_id', 'accounts_accounts').nullable();
    restrictedId(t, 'loss_account_id', 'accounts_accounts').nullable();
    foreignId(t, 'currency_id', 'currencies', 'SET NULL').nullable();
    restrictedId(t, 'company_id', 'companies').nullable();
    t.integer('sort').nullable().index();
    t.string('color', 7).nullable();
    t.string('invoice_reference_type', 20).notNullable().defaultTo('invoice');
    t.string('invoice_reference_model', 20).notNullable().defaultTo('aureus');
    t.boolean('refund_order').notNullable().defaultTo(false);
    t.boolean('payment_order').notNullable().defaultTo(false);
    t.boolean('show_on_dashboard').notNullable().defaultTo(false);
    creator(t);
    timestamps(t);
    t.unique(['company_id', 'code'], { indexName: 'accounts_journals_company_id_code_unique' });
  });

  await knex.schema.createTable('accounts_tax_groups', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.string('preceding_subtotal', 255).nullable();
    t.integer('sort').nullable().index();
    restrictedId(t, 'company_id', 'companies').nullable();
    foreignId(t, 'country_id', 'countries', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
  });

  await knex.schema.createTable('accounts_taxes', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.string('type_tax_use', 20).notNullable().index(); // sale, purchase, none
    t.string('amount_type', 20).notNullable().defaultTo('percent').index(); // percent, fixed, division
    t.decimal('amount', 15, 4).notNullable().defaultTo(0).index();
    t.boolean('price_include').notNullable().defaultTo(false);
    t.boolean('include_base_amount').notNullable().defaultTo(false);
    t.boolean('is_active').notNullable().defaultTo(true).index();
    t.text('description').nullable();
    t.string('invoice_label', 255).nullable();
    t.integer('sort').nullable().index();
    restrictedId(t, 'tax_group_id', 'accounts_tax_groups').nullable();
    restrictedId(t, 'company_id', 'companies').nullable();
    foreignId(t, 'country_id', 'countries', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
  });

  await knex.schema.createTable('accounts_payment_terms', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.text('note').nullable();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    t.integer('sort').nullable().index();
    t.boolean('display_on_invoice').notNullable().defaultTo(true);
    t.boolean('early_discount').notNullable().defaultTo(false);
    t.integer('discount_days').nullable();
    t.decimal('discount_percentage', 15, 4).nullable().defaultTo(0);
    t.string('early_pay_discount', 20).nullable();
    creator(t);
    timestamps(t);
    softDeletes(t);
  });

  await knex.schema.createTable('accounts_payment_due_terms', (t) => {
    t.increments('id');
    // Due terms belong to their payment term and go with it.
    foreignId(t, 'payment_id', 'accounts_payment_terms', 'CASCADE').notNullable();
    t.string('value', 20).notNullable().index(); // percent, fixed
    t.decimal('value_amount', 15, 4).notNullable().defaultTo(0);
    t.string('delay_type', 40).notNullable().index();
    t.integer('nb_days').notNullable().defaultTo(0).index();
    t.integer('days_next_month').nullable();
    creator(t);
    timestamps(t);
  });

  await knex.schema.createTable('accounts_fiscal_positions', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.integer('sort').nullable().index();
    restrictedId(t, 'company_id', 'companies').notNullable();
    foreignId(t, 'country_id', 'countries', 'SET NULL').nullable();
    // As in the original, the country group is a country.
    foreignId(t, 'country_group_id', 'countries', 'SET NULL').nullable();
    t.string('zip_from', 10).nullable();
    t.string('zip_to', 10).nullable();
    t.string('foreign_vat', 255).nullable();
    t.text('notes').nullable();
    t.boolean('auto_reply').notNullable().defaultTo(false);
    t.boolean('vat_required').notNullable().defaultTo(false).index();
    creator(t);
    timestamps(t);
  });
  await knex.schema.createTable('accounts_fiscal_position_taxes', (t) => {
    t.increments('id');
    foreignId(t, 'fiscal_position_id', 'accounts_fiscal_positions', 'CASCADE').notNullable();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    restrictedId(t, 'tax_source_id', 'accounts_taxes').notNullable();
    restrictedId(t, 'tax_destination_id', 'accounts_taxes').nullable();
    creator(t);
    timestamps(t);
  });
  await knex.schema.createTable('accounts_fiscal_position_accounts', (t) => {
    t.increments('id');
    foreignId(t, 'fiscal_position_id', 'accounts_fiscal_positions', 'CASCADE').notNullable();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    restrictedId(t, 'account_source_id', 'accounts_accounts').notNullable();
    restrictedId(t, 'account_destination_id', 'accounts_accounts').notNullable();
    creator(t);
    timestamps(t);
  });

  // A product's default taxes: `type` sale (customer taxes) or purchase (vendor taxes).
  // A tax still used by a product cannot be deleted (409); a product takes its rows with it.
  await knex.schema.createTable('products_product_taxes', (t) => {
    foreignId(t, 'product_id', 'products_products', 'CASCADE').notNullable();
    restrictedId(t, 'tax_id', 'accounts_taxes').notNullable();
    t.string('type', 20).notNullable().defaultTo('sale').index();
    t.primary(['product_id', 'tax_id', 'type']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'products_product_taxes',
    'accounts_fiscal_position_accounts',
    'accounts_fiscal_position_taxes',
    'accounts_fiscal_positions',
    'accounts_payment_due_terms',
    'accounts_payment_terms',
    'accounts_taxes',
    'accounts_tax_groups',
    'accounts_journals',
    'accounts_accounts',
  ]) {
    await knex.schema.dropTable(table);
  }
}
