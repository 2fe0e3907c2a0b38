// Sales orders and their lines, with the lines' taxes and the orders' tags.
import type { Knex } from 'knex';
import { creator, foreignId, softDeletes, timestamps } from './helpers.ts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sales_orders', (t) => {
    t.increments('id');
    t.string('name', 64).notNullable().index();
    t.string('state', 20).notNullable().defaultTo('draft').index();
    t.string('invoice_status', 20).notNullable().defaultTo('no').index();
    t.string('delivery_status', 20).notNullable().defaultTo('no');
    t.string('client_order_ref', 255).nullable();
    t.string('origin', 255).nullable();
    t.string('reference', 255).nullable();
    t.date('date_order').notNullable().index();
    t.date('validity_date').nullable();
    t.datetime('commitment_date', { precision: 6 }).nullable();
    t.decimal('currency_rate', 20, 6).notNullable().defaultTo(1);
    t.decimal('amount_untaxed', 15, 4).notNullable().defaultTo(0);
    t.decimal('amount_tax', 15, 4).notNullable().defaultTo(0);
    t.decimal('amount_total', 15, 4).notNullable().defaultTo(0).index();
    t.decimal('prepayment_percent', 5, 2).notNullable().defaultTo(0);
    t.boolean('locked').notNullable().defaultTo(false);
    t.boolean('require_signature').notNullable().defaultTo(false);
    t.boolean('require_payment').notNullable().defaultTo(false);
    t.string('signed_by', 255).nullable();
    t.datetime('signed_on', { precision: 6 }).nullable();
    t.text('note').nullable();
    t.string('access_token', 64).nullable();
    foreignId(t, 'partner_id', 'partners_partners').notNullable();
    foreignId(t, 'partner_invoice_id', 'partners_partners').nullable();
    foreignId(t, 'partner_shipping_id', 'partners_partners').nullable();
    foreignId(t, 'user_id', 'users', 'SET NULL').nullable();
    foreignId(t, 'team_id', 'sales_teams', 'SET NULL').nullable();
    foreignId(t, 'company_id', 'companies').notNullable();
    foreignId(t, 'currency_id', 'currencies').notNullable();
    foreignId(t, 'price_list_id', 'sales_price_lists', 'SET NULL').nullable();
    foreignId(t, 'payment_term_id', 'accounts_payment_terms').notNullable();
    foreignId(t, 'fiscal_position_id', 'accounts_fiscal_positions', 'SET NULL').nullable();
    foreignId(t, 'journal_id', 'accounts_journals', 'SET NULL').nullable();
    foreignId(t, 'campaign_id', 'utm_campaigns', 'SET NULL').nullable();
    foreignId(t, 'utm_source_id', 'utm_sources', 'SET NULL').nullable();
    foreignId(t, 'medium_id', 'utm_mediums', 'SET NULL').nullable();
    foreignId(t, 'warehouse_id', 'inventories_warehouses', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
    softDeletes(t);
    t.index(['updated_at']);
  });
  await knex.schema.createTable('sales_order_lines', (t) => {
    t.increments('id');
    foreignId(t, 'order_id', 'sales_orders', 'CASCADE').notNullable();
    t.integer('sort').nullable().index();
    t.string('name', 1024).notNullable();
    t.string('display_type', 20).nullable();
    t.string('state', 20).notNullable().defaultTo('draft');
    t.string('invoice_status', 20).notNullable().defaultTo('no');
    t.string('qty_delivered_method', 20).nullable();
    foreignId(t, 'product_id', 'products_products').notNullable();
    foreignId(t, 'product_uom_id', 'unit_of_measures').nullable();
    foreignId(t, 'product_packaging_id', 'products_packagings', 'SET NULL').nullable();
    for (const column of ['product_uom_qty', 'product_qty', 'qty_delivered', 'qty_invoiced', 'qty_to_invoice', 'product_packaging_qty', 'customer_lead']) {
      t.decimal(column, 15, 4).notNullable().defaultTo(0);
    }
    for (const column of [
      'price_unit',
      'technical_price_unit',
      'discount',
      'price_subtotal',
      'price_tax',
      'price_total',
      'price_reduce_taxexcl',
      'price_reduce_taxinc',
      'untaxed_amount_invoiced',
      'untaxed_amount_to_invoice',
    ]) {
      t.decimal(column, 15, 4).notNullable().defaultTo(0);
    }
    foreignId(t, 'currency_id', 'currencies').nullable();
    foreignId(t, 'company_id', 'companies').nullable();
    foreignId(t, 'order_partner_id', 'partners_partners', 'SET NULL').nullable();
    foreignId(t, 'salesman_id', 'users', 'SET NULL').nullable();
    foreignId(t, 'warehouse_id', 'inventories_warehouses', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
  });
  await knex.schema.createTable('sales_order_line_taxes', (t) => {
    foreignId(t, 'order_line_id', 'sales_order_lines', 'CASCADE').notNullable();
    foreignId(t, 'tax_id', 'accounts_taxes', 'RESTRICT').notNullable();
    t.primary(['order_line_id', 'tax_id']);
  });
  await knex.schema.createTable('sales_order_tags', (t) => {
    foreignId(t, 'order_id', 'sales_orders', 'CASCADE').notNullable();
    foreignId(t, 'tag_id', 'sales_tags', 'CASCADE').notNullable();
    t.primary(['order_id', 'tag_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['sales_order_tags', 'sales_order_line_taxes', 'sales_order_lines', 'sales_orders']) await knex.schema.dropTable(table);
}
