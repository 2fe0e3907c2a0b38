// The purchases module (reference-o2c-p2p §7.4): vendor price lists (products_product_suppliers),
// purchase agreements with their lines, purchase orders with their lines and the lines' taxes,
// and the links from stock to purchases: the order an operation receives for, and the order
// line a move receives.
//
// Differences from the original's tables, on purpose:
// - amounts and quantities of order lines are decimal(15,4), not decimal(15,2) and doubles;
// - an operation names its order in inventories_operations.purchase_order_id (as sales have
//   sale_order_id) instead of the pivot purchases_order_operations: an operation receives for one
//   order at most, and the order's receipts are then read by that key;
// - no bill links (purchases_order_account_moves): they come with the account moves; no
//   procurement groups, order points or incoterms, which this installation does not have yet;
// - references that must not disappear under a document refuse the delete (409) instead of
//   cascading: a tax still on an order line, an agreement an order was made from, an order that
//   has receipts.
import type { Knex } from 'knex';
import { creator, foreignId, softDeletes, timestamps } from './helpers.ts';

/**
 * A foreign key with its index that refuses to delete a row still referenced. Written without
 * ON DELETE (NO ACTION, which MySQL treats as RESTRICT): SQLite reports a RESTRICT violation as
 * SQLITE_CONSTRAINT_TRIGGER, which the API cannot tell from a server fault, and NO ACTION as
 * SQLITE_CONSTRAINT_FOREIGNKEY, which it answers with 409 (see 20260104000001).
 */
function restrictedId(t: Knex.CreateTableBuilder | Knex.AlterTableBuilder, column: string, table: string) {
  return t.integer(column).unsigned().references('id').inTable(table).index();
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('products_product_suppliers', (t) => {
    t.increments('id');
    t.integer('sort').nullable().index();
    t.integer('delay').notNullable().defaultTo(0);
    t.string('product_name', 255).nullable();
    t.string('product_code', 255).nullable();
    t.date('starts_at').nullable().index();
    t.date('ends_at').nullable().index();
    t.decimal('min_qty', 15, 4).notNullable().defaultTo(0).index();
    t.decimal('price', 15, 4).notNullable().defaultTo(0).index();
    t.decimal('discount', 15, 4).notNullable().defaultTo(0);
    t.decimal('price_discounted', 15, 4).notNullable().defaultTo(0);
    foreignId(t, 'product_id', 'products_products', 'SET NULL').nullable();
    foreignId(t, 'partner_id', 'partners_partners', 'CASCADE').notNullable();
    restrictedId(t, 'currency_id', 'currencies').notNullable();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    foreignId(t, 'uom_id', 'unit_of_measures', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
  });

  await knex.schema.createTable('purchases_requisitions', (t) => {
    t.increments('id');
    // BO/<id> or PT/<id>: written once the id is known, in the create's transaction.
    t.string('name', 64).nullable().index();
    t.string('type', 20).notNullable().index();
    t.string('state', 20).notNullable().defaultTo('draft').index();
    t.string('reference', 255).nullable();
    t.date('starts_at').nullable().index();
    t.date('ends_at').nullable().index();
    t.text('description').nullable();
    restrictedId(t, 'currency_id', 'currencies').notNullable();
    restrictedId(t, 'partner_id', 'partners_partners').notNullable();
    foreignId(t, 'user_id', 'users', 'SET NULL').nullable();
    restrictedId(t, 'company_id', 'companies').notNullable();
    creator(t);
    timestamps(t);
    softDeletes(t);
  });

  await knex.schema.createTable('purchases_requisition_lines', (t) => {
    t.increments('id');
    t.decimal('qty', 15, 4).notNullable().defaultTo(0);
    t.decimal('price_unit', 15, 4).notNullable().defaultTo(0);
    foreignId(t, 'requisition_id', 'purchases_requisitions', 'CASCADE').notNullable();
    restrictedId(t, 'product_id', 'products_products').notNullable();
    foreignId(t, 'uom_id', 'unit_of_measures', 'SET NULL').nullable();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    creator(t);
    timestamps(t, { indexed: false });
  });

  await knex.schema.createTable('purchases_orders', (t) => {
    t.increments('id');
    t.string('name', 64).notNullable().index();
    t.text('description').nullable();
    t.string('priority', 20).notNullable().defaultTo('0');
    t.string('origin', 255).nullable();
    t.string('partner_reference', 255).nullable();
    t.string('state', 20).notNullable().defaultTo('draft').index();
    t.string('invoice_status', 20).notNullable().defaultTo('no').index();
    t.string('receipt_status', 20).notNullable().defaultTo('no').index();
    for (const column of ['untaxed_amount', 'tax_amount', 'total_amount', 'total_cc_amount']) t.decimal(column, 15, 4).notNullable().defaultTo(0);
    t.decimal('currency_rate', 15, 6).notNullable().defaultTo(0);
    t.integer('invoice_count').notNullable().defaultTo(0);
    t.datetime('ordered_at', { precision: 6 }).notNullable().index();
    t.datetime('approved_at', { precision: 6 }).nullable();
    t.datetime('planned_at', { precision: 6 }).nullable().index();
    t.datetime('calendar_start_at', { precision: 6 }).nullable();
    t.datetime('effective_date', { precision: 6 }).nullable();
    t.string('incoterm_location', 255).nullable();
    for (const column of ['mail_reminder_confirmed', 'mail_reception_confirmed', 'mail_reception_declined', 'report_grids']) t.boolean(column).notNullable().defaultTo(false);
    restrictedId(t, 'requisition_id', 'purchases_requisitions').nullable();
    restrictedId(t, 'partner_id', 'partners_partners').notNullable();
    restrictedId(t, 'currency_id', 'currencies').notNullable();
    foreignId(t, 'fiscal_position_id', 'accounts_fiscal_positions', 'SET NULL').nullable();
    foreignId(t, 'payment_term_id', 'accounts_payment_terms', 'SET NULL').nullable();
    foreignId(t, 'user_id', 'users', 'SET NULL').nullable();
    restrictedId(t, 'company_id', 'companies').notNullable();
    restrictedId(t, 'operation_type_id', 'inventories_operation_types').nullable();
    foreignId(t, 'destination_address_id', 'partners_partners', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
    t.index(['updated_at']);
    t.unique(['company_id', 'name'], { indexName: 'purchases_orders_company_id_name_unique' });
  });

  await knex.schema.createTable('purchases_order_lines', (t) => {
    t.increments('id');
    t.text('name').notNullable();
    t.string('state', 20).nullable();
    t.integer('sort').nullable().index();
    t.string('qty_received_method', 20).nullable();
    t.string('display_type', 20).nullable();
    for (const column of [
      'product_qty',
      'product_uom_qty',
      'product_packaging_qty',
      'price_unit',
      'discount',
      'price_subtotal',
      'price_tax',
      'price_total',
      'price_total_cc',
      'qty_invoiced',
      'qty_received',
      'qty_received_manual',
      'qty_to_invoice',
    ]) {
      t.decimal(column, 15, 4).notNullable().defaultTo(0);
    }
    t.boolean('is_downpayment').notNullable().defaultTo(false);
    t.datetime('planned_at', { precision: 6 }).nullable();
    t.string('product_description_variants', 255).nullable();
    t.boolean('propagate_cancel').nullable();
    foreignId(t, 'order_id', 'purchases_orders', 'CASCADE').notNullable();
    restrictedId(t, 'product_id', 'products_products').nullable();
    restrictedId(t, 'uom_id', 'unit_of_measures').nullable();
    foreignId(t, 'product_packaging_id', 'products_packagings', 'SET NULL').nullable();
    foreignId(t, 'partner_id', 'partners_partners', 'SET NULL').nullable();
    foreignId(t, 'currency_id', 'currencies', 'SET NULL').nullable();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    restrictedId(t, 'final_location_id', 'inventories_locations').nullable();
    creator(t);
    timestamps(t, { indexed: false });
  });

  await knex.schema.createTable('purchases_order_line_taxes', (t) => {
    foreignId(t, 'order_line_id', 'purchases_order_lines', 'CASCADE').notNullable();
    restrictedId(t, 'tax_id', 'accounts_taxes').notNullable();
    t.primary(['order_line_id', 'tax_id']);
  });

  // What was received for an order: an order with receipts (even canceled ones) is not deleted
  // (409). Its lines are, when a canceled order set back to draft changes them: the moves of its
  // canceled receipts then lose the link (lines of a confirmed order cannot change, and an order
  // with a done receipt cannot be canceled, so no done move ever does).
  await knex.schema.alterTable('inventories_operations', (t) => {
    restrictedId(t, 'purchase_order_id', 'purchases_orders').nullable();
  });
  await knex.schema.alterTable('inventories_moves', (t) => {
    foreignId(t, 'purchase_order_line_id', 'purchases_order_lines', 'SET NULL').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('inventories_moves', (t) => {
    t.dropForeign(['purchase_order_line_id']);
    t.dropColumn('purchase_order_line_id');
  });
  await knex.schema.alterTable('inventories_operations', (t) => {
    t.dropForeign(['purchase_order_id']);
    t.dropColumn('purchase_order_id');
  });
  for (const table of [
    'purchases_order_line_taxes',
    'purchases_order_lines',
    'purchases_orders',
    'purchases_requisition_lines',
    'purchases_requisitions',
    'products_product_suppliers',
  ]) {
    await knex.schema.dropTable(table);
  }
}
