// Partners and the product catalogue: shared by the partners, products, inventories, accounts
// and sales modules. Columns that point into inventories or accounts get their foreign keys in
// those modules' migrations.
import type { Knex } from 'knex';
import { creator, foreignId, softDeletes, timestamps } from './helpers.ts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('partners_titles', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.string('short_name', 255).nullable();
    creator(t);
    timestamps(t);
  });
  await knex.schema.createTable('partners_industries', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.string('description', 255).nullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    creator(t);
    timestamps(t);
    softDeletes(t);
  });
  await knex.schema.createTable('partners_tags', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().unique('partners_tags_name_unique');
    t.string('color', 7).nullable();
    creator(t);
    timestamps(t);
    softDeletes(t);
  });
  await knex.schema.createTable('partners_partners', (t) => {
    t.increments('id');
    t.string('account_type', 20).notNullable().defaultTo('individual').index();
    t.string('sub_type', 20).nullable().defaultTo('partner').index();
    t.string('name', 255).notNullable().index();
    t.string('email', 255).nullable().index();
    t.string('phone', 20).nullable().index();
    t.string('mobile', 20).nullable();
    t.string('avatar', 255).nullable();
    t.string('job_title', 255).nullable();
    t.string('website', 255).nullable();
    t.string('tax_id', 255).nullable();
    t.string('company_registry', 255).nullable();
    t.string('reference', 255).nullable();
    t.string('color', 7).nullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.string('street1', 255).nullable();
    t.string('street2', 255).nullable();
    t.string('city', 255).nullable().index();
    t.string('zip', 20).nullable();
    foreignId(t, 'state_id', 'states', 'SET NULL').nullable();
    foreignId(t, 'country_id', 'countries', 'SET NULL').nullable();
    foreignId(t, 'parent_id', 'partners_partners', 'SET NULL').nullable();
    foreignId(t, 'title_id', 'partners_titles', 'SET NULL').nullable();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    foreignId(t, 'industry_id', 'partners_industries', 'SET NULL').nullable();
    foreignId(t, 'user_id', 'users', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
    softDeletes(t);
  });
  await knex.schema.createTable('partners_partner_tag', (t) => {
    foreignId(t, 'partner_id', 'partners_partners', 'CASCADE').notNullable();
    foreignId(t, 'tag_id', 'partners_tags', 'CASCADE').notNullable();
    t.primary(['partner_id', 'tag_id']);
  });

  await knex.schema.createTable('products_categories', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.string('full_name', 1024).nullable();
    t.string('parent_path', 255).nullable().index();
    foreignId(t, 'parent_id', 'products_categories', 'RESTRICT').nullable();
    creator(t);
    timestamps(t);
  });
  await knex.schema.createTable('products_tags', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().unique('products_tags_name_unique');
    t.string('color', 7).nullable();
    creator(t);
    timestamps(t);
    softDeletes(t);
  });
  await knex.schema.createTable('products_products', (t) => {
    t.increments('id');
    t.string('type', 20).notNullable().defaultTo('goods').index();
    t.string('name', 255).notNullable().index();
    t.string('service_tracking', 255).nullable();
    t.string('reference', 255).nullable().index();
    t.string('barcode', 255).nullable().index();
    t.decimal('price', 15, 4).notNullable().defaultTo(0).index();
    t.decimal('cost', 15, 4).nullable().index();
    t.decimal('volume', 15, 4).nullable();
    t.decimal('weight', 15, 4).nullable();
    t.text('description').nullable();
    t.text('description_purchase').nullable();
    t.text('description_sale').nullable();
    t.boolean('enable_sales').notNullable().defaultTo(true).index();
    t.boolean('enable_purchase').notNullable().defaultTo(true).index();
    t.boolean('is_favorite').notNullable().defaultTo(false);
    t.boolean('is_configurable').notNullable().defaultTo(false);
    t.text('images').nullable();
    t.integer('sort').nullable().index();
    foreignId(t, 'parent_id', 'products_products', 'SET NULL').nullable();
    foreignId(t, 'uom_id', 'unit_of_measures', 'RESTRICT').nullable();
    foreignId(t, 'uom_po_id', 'unit_of_measures', 'RESTRICT').nullable();
    foreignId(t, 'category_id', 'products_categories', 'RESTRICT').notNullable();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    // Inventory fields.
    t.boolean('is_storable').notNullable().defaultTo(false).index();
    t.string('tracking', 20).nullable().defaultTo('qty').index();
    t.boolean('use_expiration_date').notNullable().defaultTo(false);
    t.decimal('sale_delay', 15, 4).nullable();
    t.decimal('expiration_time', 15, 4).nullable();
    t.decimal('use_time', 15, 4).nullable();
    t.decimal('removal_time', 15, 4).nullable();
    t.decimal('alert_time', 15, 4).nullable();
    foreignId(t, 'responsible_id', 'users', 'SET NULL').nullable();
    // Accounting fields (foreign keys to accounts_accounts come with the accounts module).
    t.integer('property_account_income_id').unsigned().nullable().index();
    t.integer('property_account_expense_id').unsigned().nullable().index();
    t.string('image', 255).nullable();
    t.string('service_type', 255).nullable();
    t.string('sale_line_warn', 255).nullable();
    t.string('expense_policy', 255).nullable();
    t.string('invoice_policy', 20).nullable();
    t.text('sale_line_warn_msg').nullable();
    t.boolean('sales_ok').notNullable().defaultTo(true);
    t.boolean('purchase_ok').notNullable().defaultTo(true);
    creator(t);
    timestamps(t);
    softDeletes(t);
  });
  await knex.schema.createTable('products_product_tag', (t) => {
    foreignId(t, 'product_id', 'products_products', 'CASCADE').notNullable();
    foreignId(t, 'tag_id', 'products_tags', 'CASCADE').notNullable();
    t.primary(['product_id', 'tag_id']);
  });
  await knex.schema.createTable('products_attributes', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.string('type', 20).notNullable().index();
    t.integer('sort').nullable().index();
    creator(t);
    timestamps(t);
    softDeletes(t);
  });
  await knex.schema.createTable('products_attribute_options', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.string('color', 7).nullable();
    t.decimal('extra_price', 15, 4).nullable();
    t.integer('sort').nullable().index();
    foreignId(t, 'attribute_id', 'products_attributes', 'CASCADE').notNullable();
    creator(t);
    timestamps(t);
  });
  await knex.schema.createTable('products_packagings', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable().index();
    t.string('barcode', 255).nullable().index();
    t.decimal('qty', 15, 4).notNullable().defaultTo(1);
    t.integer('sort').nullable().index();
    foreignId(t, 'product_id', 'products_products', 'CASCADE').nullable();
    foreignId(t, 'company_id', 'companies', 'SET NULL').nullable();
    creator(t);
    timestamps(t);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'products_packagings',
    'products_attribute_options',
    'products_attributes',
    'products_product_tag',
    'products_products',
    'products_tags',
    'products_categories',
    'partners_partner_tag',
    'partners_partners',
    'partners_tags',
    'partners_industries',
    'partners_titles',
  ]) {
    await knex.schema.dropTable(table);
  }
}
