// Product variants (reference-o2c-p2p §3.6): which attribute values a product is configured with,
// and which values each of its variants combines.
//
// Differences from the original's tables, on purpose: the original keeps a product's attributes
// in products_product_attributes, their values in products_product_attribute_values (with an
// extra price per product that nothing sets) and the variants' combinations in
// products_product_combinations. Here a product names the attribute options it offers directly
// (the attributes follow from the options; the extra price is the option's), and a variant names
// the options it combines:
// - products_product_attribute_options: product ↔ option, the values variants are made from;
// - products_product_variant_values: variant ↔ option, what one variant combines.
// Both rows go with their product or option (cascade).
import type { Knex } from 'knex';
import { foreignId } from './helpers.ts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('products_product_attribute_options', (t) => {
    foreignId(t, 'product_id', 'products_products', 'CASCADE').notNullable();
    foreignId(t, 'attribute_option_id', 'products_attribute_options', 'CASCADE').notNullable();
    t.primary(['product_id', 'attribute_option_id']);
  });
  await knex.schema.createTable('products_product_variant_values', (t) => {
    foreignId(t, 'product_id', 'products_products', 'CASCADE').notNullable();
    foreignId(t, 'attribute_option_id', 'products_attribute_options', 'CASCADE').notNullable();
    t.primary(['product_id', 'attribute_option_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('products_product_variant_values');
  await knex.schema.dropTable('products_product_attribute_options');
}
