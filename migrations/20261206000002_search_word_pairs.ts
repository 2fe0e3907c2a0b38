// On MySQL/MariaDB, search reads a table of (word, id) pairs beside each searched table instead of
// the FULLTEXT index 20261206000001 made: InnoDB's full-text search merged every word a short term
// starts and all their rows (`zur` over 1,000,000 partners: 500 ms for the count alone), where the
// pairs' key reads one range (engine/sql/search-index.ts, docs/performance.md). The pairs are
// filled from the words each row already stores. Nothing changes on SQLite (FTS5).
import type { Knex } from 'knex';
import { addWordPairs, dialectOf, fillWordPairs } from '../engine/index.ts';
import { SEARCHED } from './20261206000001_add_search_words.ts';

const fulltextIndex = (table: string) => `${table}_search_words_fulltext`;

async function hasIndex(knex: Knex, table: string, index: string): Promise<boolean> {
  const [rows] = await knex.raw('SELECT 1 FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME = ? LIMIT 1', [table, index]);
  return rows.length > 0;
}

export async function up(knex: Knex): Promise<void> {
  if (dialectOf(knex) !== 'mysql') return;
  for (const table of Object.keys(SEARCHED)) {
    // A database migrated after the pairs came has them from 20261206000001 already.
    if (await hasIndex(knex, table, fulltextIndex(table))) await knex.raw(`ALTER TABLE \`${table}\` DROP INDEX \`${fulltextIndex(table)}\``);
    if (!(await knex.schema.hasTable(`${table}_search`))) {
      await addWordPairs(knex, table);
      await fillWordPairs(knex, table);
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  if (dialectOf(knex) !== 'mysql') return;
  for (const table of Object.keys(SEARCHED).reverse()) {
    await knex.schema.dropTableIfExists(`${table}_search`);
    await knex.raw(`ALTER TABLE \`${table}\` ADD FULLTEXT INDEX \`${fulltextIndex(table)}\` (\`search_words\`)`);
  }
}
