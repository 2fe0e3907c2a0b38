// Partner bank accounts, and the attributes a product is configured with (issue 32, part 3;
// reference-projects-extras §5, §6).
//
// A product's attributes become records of their own (products_product_attributes: Size on this
// shirt, in this order) with their values (products_product_attribute_values: S and M of that
// Size). They replace products_product_attribute_options (product ↔ option), which said the same
// with no row per attribute: its rows are carried over, one product attribute per product and
// attribute, and the table goes. Both /products/products/{product}/attributes and the
// `attribute_options` ids of /accounts/products write these rows; sync-variants reads them.
// products_product_variant_values (variant ↔ option) stays: it is the original's
// products_product_combinations, keyed by option rather than by value row.
import type { Knex } from 'knex';
import { creator, foreignId, softDeletes, timestamps } from './helpers.ts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('partners_bank_accounts', (t) => {
    t.increments('id');
    t.string('account_number', 255).notNullable().unique();
    t.string('account_holder_name', 255).notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.boolean('can_send_money').notNullable().defaultTo(false);
    creator(t);
    foreignId(t, 'partner_id', 'partners_partners', 'CASCADE').notNullable();
    foreignId(t, 'bank_id', 'banks', 'CASCADE').notNullable();
    softDeletes(t, { indexed: false });
    timestamps(t, { indexed: false });
  });

  await knex.schema.createTable('products_product_attributes', (t) => {
    t.increments('id');
    t.integer('sort').nullable();
    foreignId(t, 'product_id', 'products_products', 'CASCADE').notNullable();
    foreignId(t, 'attribute_id', 'products_attributes', 'CASCADE').notNullable();
    creator(t);
    timestamps(t, { indexed: false });
  });

  await knex.schema.createTable('products_product_attribute_values', (t) => {
    t.increments('id');
    t.decimal('extra_price', 15, 4).nullable();
    foreignId(t, 'product_id', 'products_products', 'CASCADE').notNullable();
    foreignId(t, 'attribute_id', 'products_attributes', 'CASCADE').notNullable();
    foreignId(t, 'product_attribute_id', 'products_product_attributes', 'CASCADE').notNullable();
    foreignId(t, 'attribute_option_id', 'products_attribute_options', 'CASCADE').notNullable();
    t.unique(['product_attribute_id', 'attribute_option_id'], { indexName: 'products_product_attribute_values_unique' });
  });

  // What products_product_attribute_options said, as product attributes (in the attributes'
  // order) and their values: set-based, whatever the number of rows.
  const now = new Date().toISOString().slice(0, 23).replace('T', ' ');
  await knex.raw(
    `INSERT INTO products_product_attributes (sort, product_id, attribute_id, created_at, updated_at)
     SELECT MIN(attr.sort), offered.product_id, opt.attribute_id, ?, ?
       FROM products_product_attribute_options offered
       JOIN products_attribute_options opt ON opt.id = offered.attribute_option_id
       JOIN products_attributes attr ON attr.id = opt.attribute_id
      GROUP BY offered.product_id, opt.attribute_id`,
    [now, now],
  );
  await knex.raw(
    `INSERT INTO products_product_attribute_values (product_id, attribute_id, product_attribute_id, attribute_option_id)
     SELECT offered.product_id, opt.attribute_id, pa.id, offered.attribute_option_id
       FROM products_product_attribute_options offered
       JOIN products_attribute_options opt ON opt.id = offered.attribute_option_id
       JOIN products_product_attributes pa ON pa.product_id = offered.product_id AND pa.attribute_id = opt.attribute_id`,
  );
  await knex.schema.dropTable('products_product_attribute_options');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.createTable('products_product_attribute_options', (t) => {
    foreignId(t, 'product_id', 'products_products', 'CASCADE').notNullable();
    foreignId(t, 'attribute_option_id', 'products_attribute_options', 'CASCADE').notNullable();
    t.primary(['product_id', 'attribute_option_id']);
  });
  await knex.raw(
    `INSERT INTO products_product_attribute_options (product_id, attribute_option_id)
     SELECT DISTINCT product_id, attribute_option_id FROM products_product_attribute_values`,
  );
  await knex.schema.dropTable('products_product_attribute_values');
  await knex.schema.dropTable('products_product_attributes');
  await knex.schema.dropTable('partners_bank_accounts');
}
