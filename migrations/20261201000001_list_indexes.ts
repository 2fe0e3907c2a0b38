// The indexes the UOM and currency rate lists use (`indexes:` in their definitions). A category's
// UOMs by name (`sort=name`, `-name`, with `filter[name]`): the index gives the live rows in order,
// so the page stops after its rows instead of sorting the category's, and the count reads the index
// alone. Each composite index starts with the parent key, so it also serves the foreign key and the
// lookups the single-column index served: that one goes, and a create updates as many indexes as before.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('unit_of_measures', (t) => {
    t.index(['category_id', 'deleted_at', 'name'], 'unit_of_measures_category_id_deleted_at_name_index');
  });
  await knex.schema.alterTable('unit_of_measures', (t) => {
    t.dropIndex(['category_id'], 'unit_of_measures_category_id_index');
  });
  await knex.schema.alterTable('currency_rates', (t) => {
    t.dropIndex(['currency_id'], 'currency_rates_currency_id_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('currency_rates', (t) => {
    t.index(['currency_id'], 'currency_rates_currency_id_index');
  });
  await knex.schema.alterTable('unit_of_measures', (t) => {
    t.index(['category_id'], 'unit_of_measures_category_id_index');
  });
  await knex.schema.alterTable('unit_of_measures', (t) => {
    t.dropIndex(['category_id', 'deleted_at', 'name'], 'unit_of_measures_category_id_deleted_at_name_index');
  });
}
