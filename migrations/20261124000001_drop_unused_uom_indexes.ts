// Every read of UOMs is within one category (the API nests them: /uom-categories/{id}/uoms) or by
// id, so the category_id index and the primary key serve them all. The single-column indexes on
// type, name, factor, created_at and deleted_at served no query and made every insert update
// seven indexes instead of two (creating a UOM: ~2,120 → ~2,510 req/s on SQLite).
import type { Knex } from 'knex';

const UNUSED = ['type', 'name', 'factor', 'created_at', 'deleted_at'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('unit_of_measures', (t) => {
    for (const column of UNUSED) t.dropIndex([column], `unit_of_measures_${column}_index`);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('unit_of_measures', (t) => {
    for (const column of UNUSED) t.index([column], `unit_of_measures_${column}_index`);
  });
}
