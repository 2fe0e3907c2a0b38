// Search (issue 51, part 2): each searched table gets the words of its searched columns
// (`search_words`) and their index (engine/sql/search-index.ts: FTS5 on SQLite and a FULLTEXT index
// on MariaDB/MySQL when this was written, (word, id) pairs on both since 20261206000002 and
// 20261206000003), filled here for
// the rows already stored. The columns are those
// the definitions searched when this was written; a definition that later searches others comes
// with a migration that fills its table's words again.
import type { Knex } from 'knex';
import { addSearchIndex, dialectOf, dropSearchIndex, fillSearchWords, storedWords } from '../engine/index.ts';

export const SEARCHED: Record<string, readonly string[]> = {
  accounts_account_moves: ['name', 'reference'],
  accounts_account_payments: ['name'],
  accounts_accounts: ['code', 'name'],
  accounts_cash_roundings: ['name'],
  accounts_fiscal_positions: ['name'],
  accounts_incoterms: ['code', 'name'],
  accounts_journals: ['code', 'name'],
  accounts_payment_terms: ['name'],
  accounts_tax_groups: ['name'],
  accounts_taxes: ['name'],
  banks: ['code', 'email', 'name'],
  companies: ['email', 'name'],
  countries: ['code', 'name'],
  currencies: ['full_name', 'name'],
  inventories_locations: ['barcode', 'name'],
  inventories_lots: ['name', 'reference'],
  inventories_moves: ['name'],
  inventories_operation_types: ['barcode', 'name'],
  inventories_operations: ['name'],
  inventories_package_types: ['barcode', 'name'],
  inventories_packages: ['name'],
  inventories_routes: ['name'],
  inventories_rules: ['name'],
  inventories_scraps: ['name'],
  inventories_storage_categories: ['name'],
  inventories_tags: ['name'],
  inventories_warehouses: ['code', 'name'],
  partners_bank_accounts: ['account_number'],
  partners_industries: ['name'],
  partners_partners: ['email', 'name', 'reference'],
  partners_tags: ['name'],
  partners_titles: ['name'],
  permissions: ['name'],
  products_attribute_options: ['name'],
  products_attributes: ['name'],
  products_categories: ['name'],
  products_packagings: ['barcode', 'name'],
  products_product_suppliers: ['product_code', 'product_name'],
  products_products: ['barcode', 'name', 'reference'],
  products_tags: ['name'],
  projects_milestones: ['name'],
  projects_project_stages: ['name'],
  projects_projects: ['name'],
  projects_tags: ['name'],
  projects_task_stages: ['name'],
  projects_tasks: ['title'],
  purchases_order_lines: ['name'],
  purchases_orders: ['name', 'partner_reference'],
  purchases_requisitions: ['name', 'reference'],
  roles: ['name'],
  sales_order_lines: ['name'],
  sales_orders: ['client_order_ref', 'name', 'reference'],
  sales_price_lists: ['name'],
  sales_tags: ['name'],
  sales_teams: ['name'],
  states: ['code', 'name'],
  unit_of_measure_categories: ['name'],
  unit_of_measures: ['name'],
  users: ['email', 'name'],
  utm_campaigns: ['name'],
  utm_mediums: ['name'],
  utm_sources: ['name'],
};

export async function up(knex: Knex): Promise<void> {
  for (const [table, columns] of Object.entries(SEARCHED)) {
    await addSearchIndex(knex, table);
    await fillSearchWords(knex, table, columns, (row) => storedWords(columns.map((column) => row[column])));
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of Object.keys(SEARCHED).reverse()) {
    // SQLite's FTS5 index of before 20261206000003 (its `down` puts it back) kept itself by triggers.
    if (dialectOf(knex) === 'sqlite') for (const trigger of ['insert', 'delete', 'update']) await knex.raw(`DROP TRIGGER IF EXISTS "${table}_search_${trigger}"`);
    await dropSearchIndex(knex, table);
  }
}
