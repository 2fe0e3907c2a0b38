// Early-payment discounts (issue 52; reference-o2c-p2p §2.7): the discount a receivable or payable
// line offers when paid by a date (Odoo's discount_date, discount_amount_currency: what is left to
// pay then, discount_balance: the same in the company currency), and the accounts a company books
// the discounts on: granted to its customers (a loss, an expense) and taken from its vendors (a
// gain, an income), as Odoo's account_journal_early_pay_discount_loss/gain_account_id. The payment
// terms' own fields (early_discount, discount_percentage, discount_days, early_pay_discount) are in
// their table since 20260104000001.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts_account_move_lines', (t) => {
    t.date('discount_date').nullable();
    t.decimal('discount_amount_currency', 15, 4).notNullable().defaultTo(0);
    t.decimal('discount_balance', 15, 4).notNullable().defaultTo(0);
  });
  await knex.schema.alterTable('companies', (t) => {
    // Restricted (409 on the account's delete), as a tax's account is.
    t.integer('early_pay_discount_loss_account_id').unsigned().nullable().references('id').inTable('accounts_accounts').index();
    t.integer('early_pay_discount_gain_account_id').unsigned().nullable().references('id').inTable('accounts_accounts').index();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('companies', (t) => {
    t.dropForeign(['early_pay_discount_loss_account_id']);
    t.dropForeign(['early_pay_discount_gain_account_id']);
    t.dropColumn('early_pay_discount_loss_account_id');
    t.dropColumn('early_pay_discount_gain_account_id');
  });
  await knex.schema.alterTable('accounts_account_move_lines', (t) => {
    t.dropColumn('discount_date');
    t.dropColumn('discount_amount_currency');
    t.dropColumn('discount_balance');
  });
}
