// products_products.property_account_income_id / property_account_expense_id (created with the
// product catalogue) get their foreign keys to accounts_accounts: an account a product still
// uses cannot be deleted (NO ACTION, as in 20260104000001, so that SQLite reports it as a
// foreign-key violation and the API answers 409).
//
// SQLite adds a foreign key by rebuilding the table. Outside a transaction knex switches
// foreign_keys off for the rebuild; inside one it cannot, and dropping the old products table
// would cascade into the tables that point at it (tags, packagings). Hence no transaction here.
import type { Knex } from 'knex';

export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('products_products', (t) => {
    t.foreign('property_account_income_id', 'products_products_property_account_income_id_foreign').references('id').inTable('accounts_accounts');
    t.foreign('property_account_expense_id', 'products_products_property_account_expense_id_foreign').references('id').inTable('accounts_accounts');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('products_products', (t) => {
    t.dropForeign(['property_account_income_id'], 'products_products_property_account_income_id_foreign');
    t.dropForeign(['property_account_expense_id'], 'products_products_property_account_expense_id_foreign');
  });
}
