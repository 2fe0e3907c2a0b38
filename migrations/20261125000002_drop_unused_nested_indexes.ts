// Tables read only under their parent (the API nests them: /currencies/{id}/rates,
// /attributes/{id}/options, /payment-terms/{id}/due-terms, /price-lists/{id}/rules, an order's
// lines, a fiscal position's taxes and accounts) are always read through the parent key's index,
// so their single-column indexes on filter columns and on created_at served no query and made
// every insert update them (the rule make:migration follows; see also
// 20261124000001_drop_unused_uom_indexes). Foreign-key columns keep their indexes, and so do the
// `sort` columns: a new record goes last by the table's MAX(sort), which without its index reads
// every row (an order's lines: 130 -> 85 orders a second once 10,000 lines were stored).
import type { Knex } from 'knex';

const UNUSED: Record<string, string[]> = {
  currency_rates: ['name', 'rate', 'created_at'],
  products_attribute_options: ['name', 'created_at'],
  accounts_payment_due_terms: ['value', 'delay_type', 'nb_days', 'created_at'],
  sales_price_list_rules: ['date_start', 'date_end', 'created_at'],
  sales_order_lines: ['created_at'],
  accounts_fiscal_position_taxes: ['created_at'],
  accounts_fiscal_position_accounts: ['created_at'],
};

export async function up(knex: Knex): Promise<void> {
  for (const [table, columns] of Object.entries(UNUSED)) {
    await knex.schema.alterTable(table, (t) => {
      for (const column of columns) t.dropIndex([column], `${table}_${column}_index`);
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, columns] of Object.entries(UNUSED)) {
    await knex.schema.alterTable(table, (t) => {
      for (const column of columns) t.index([column], `${table}_${column}_index`);
    });
  }
}
