// Which columns each searched table's words are made from (engine/sql/search-index.ts,
// SEARCH_COLUMNS_TABLE): `make:migration` compares it with the definitions, so a definition that
// searches other fields gets the migration that makes its table's words again. The stored words
// of today were made by 20261206000001 from its SEARCHED columns.
import type { Knex } from 'knex';
import { recordSearchColumns, SEARCH_COLUMNS_TABLE } from '../engine/index.ts';
import { SEARCHED } from './20261206000001_add_search_words.ts';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable(SEARCH_COLUMNS_TABLE, (t) => {
    t.string('table_name', 64).primary();
    t.text('columns').notNullable();
  });
  for (const [table, columns] of Object.entries(SEARCHED)) if (await knex.schema.hasColumn(table, 'search_words')) await recordSearchColumns(knex, table, columns);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists(SEARCH_COLUMNS_TABLE);
}
