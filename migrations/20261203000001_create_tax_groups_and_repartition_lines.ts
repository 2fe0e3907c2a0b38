// The tax engine as the original has it (issue 52; reference-o2c-p2p §2.7, §7.1): group taxes and
// their children (accounts_tax_taxes, the original's pivot), how each tax is booked
// (accounts_tax_partition_lines, Odoo's account.tax.repartition.line: per document type, a base
// line and tax lines each with a factor and an account), whether a tax's base is raised by the
// taxes before it (is_base_affected, Odoo's default true), the company's tax rounding mode, and on
// a document's tax lines the repartition line and group tax they come from.
//
// Every existing tax gets the repartition lines a new tax gets (100 % base, 100 % tax, for invoices
// and for refunds), its tax lines on the account it booked to until now (accounts_taxes.account_id,
// none: the line's account), so that its documents compute as before.
import type { Knex } from 'knex';
import { creator, foreignId, timestamps } from './helpers.ts';

/** A foreign key refusing to delete a referenced row, answered 409 on both databases (see 20260104000001). */
function restrictedId(t: Knex.CreateTableBuilder, column: string, table: string) {
  return t.integer(column).unsigned().references('id').inTable(table).index();
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts_taxes', (t) => {
    t.boolean('is_base_affected').notNullable().defaultTo(true);
  });
  await knex.schema.alterTable('companies', (t) => {
    t.string('tax_calculation_rounding_method', 20).notNullable().defaultTo('round_per_line');
  });

  // A group's children; a tax inside a group is not deleted (409), a group takes its links along.
  await knex.schema.createTable('accounts_tax_taxes', (t) => {
    foreignId(t, 'parent_tax_id', 'accounts_taxes', 'CASCADE', { indexed: false }).notNullable();
    restrictedId(t, 'child_tax_id', 'accounts_taxes').notNullable();
    t.primary(['parent_tax_id', 'child_tax_id']);
  });

  await knex.schema.createTable('accounts_tax_partition_lines', (t) => {
    t.increments('id');
    foreignId(t, 'tax_id', 'accounts_taxes', 'CASCADE').notNullable();
    restrictedId(t, 'account_id', 'accounts_accounts').nullable();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    t.string('document_type', 20).notNullable(); // invoice, refund
    t.string('repartition_type', 20).notNullable(); // base, tax
    t.decimal('factor_percent', 15, 4).notNullable().defaultTo(100);
    t.decimal('factor', 15, 4).nullable();
    t.integer('sort').nullable().index();
    creator(t);
    timestamps(t, { indexed: false });
  });

  await knex.schema.alterTable('accounts_account_move_lines', (t) => {
    restrictedId(t, 'tax_repartition_line_id', 'accounts_tax_partition_lines').nullable();
    foreignId(t, 'group_tax_id', 'accounts_taxes', 'SET NULL').nullable();
  });

  // Set-based, whatever the number of taxes.
  const now = new Date().toISOString().slice(0, 23).replace('T', ' ');
  await knex.raw(
    `INSERT INTO accounts_tax_partition_lines (tax_id, company_id, document_type, repartition_type, factor_percent, factor, account_id, sort, creator_id, created_at, updated_at)
     SELECT tax.id, tax.company_id, kind.document_type, kind.repartition_type, 100, 1,
            CASE WHEN kind.repartition_type = 'tax' THEN tax.account_id ELSE NULL END, kind.sort, tax.creator_id, ?, ?
       FROM accounts_taxes tax
      CROSS JOIN (SELECT 'invoice' AS document_type, 'base' AS repartition_type, 1 AS sort
                  UNION ALL SELECT 'invoice', 'tax', 2
                  UNION ALL SELECT 'refund', 'base', 3
                  UNION ALL SELECT 'refund', 'tax', 4) kind
      ORDER BY tax.id, kind.sort`,
    [now, now],
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts_account_move_lines', (t) => {
    t.dropForeign(['tax_repartition_line_id']);
    t.dropForeign(['group_tax_id']);
    t.dropColumn('tax_repartition_line_id');
    t.dropColumn('group_tax_id');
  });
  await knex.schema.dropTable('accounts_tax_partition_lines');
  await knex.schema.dropTable('accounts_tax_taxes');
  await knex.schema.alterTable('companies', (t) => {
    t.dropColumn('tax_calculation_rounding_method');
  });
  await knex.schema.alterTable('accounts_taxes', (t) => {
    t.dropColumn('is_base_affected');
  });
}
