// The index `search=` reads (engine/rules/search.ts keeps its words): each searched table has a
// `search_words` column, indexed by SQLite's FTS5 (an external-content table kept in step by
// triggers, in the write's transaction) or by a MariaDB/MySQL FULLTEXT index. The words are
// worked out in JavaScript (engine/definition/search-words.ts), so both indexes only split on spaces.
import type { Knex } from 'knex';
import { SEARCH_COLUMN } from '../definition/search.ts';
import { dialectOf, type Dialect } from './dialect.ts';
import { quote, type Condition } from './quote.ts';
import { updateEach } from './update-each.ts';

const ftsTable = (table: string) => `${table}_search`;
const fulltextIndex = (table: string) => `${table}_search_words_fulltext`;

/** The rows with a word starting with each term (marked as stored: engine/definition/search-words.ts): the search's condition in a list's WHERE. */
export function searchCondition(dialect: Dialect, table: string, terms: readonly string[]): Condition {
  if (dialect === 'sqlite') {
    // A quoted term followed by `*` is a prefix: FTS5 reads nothing else in it (the words hold only letters and digits).
    const match = terms.map((term) => `"${term}"*`).join(' AND ');
    return { sql: `${quote(`${table}.id`)} IN (SELECT rowid FROM ${quote(ftsTable(table))} WHERE ${quote(ftsTable(table))} MATCH ?)`, params: [match] };
  }
  const match = terms.map((term) => `+${term}*`).join(' ');
  return { sql: `MATCH(${quote(`${table}.${SEARCH_COLUMN}`)}) AGAINST (? IN BOOLEAN MODE)`, params: [match] };
}

/** Gives `table` its words column and their index (a migration's). */
export async function addSearchIndex(knex: Knex, table: string): Promise<void> {
  await knex.schema.alterTable(table, (t) => {
    t.text(SEARCH_COLUMN).nullable();
  });
  if (dialectOf(knex) === 'mysql') {
    await knex.raw(`ALTER TABLE ${quote(table)} ADD FULLTEXT INDEX ${quote(fulltextIndex(table))} (${quote(SEARCH_COLUMN)})`);
    return;
  }
  const fts = quote(ftsTable(table));
  const column = quote(SEARCH_COLUMN);
  // detail=none: only which rows hold a word, all a prefix search needs (the smallest FTS5 index).
  // prefix: the rows of each word's first 4 and 5 characters (the mark and a 3- or 4-letter
  // term) kept ready, so a short term reads one list instead of merging every word it starts
  // (`zur` over 1,000,000 partners: 11 ms to 1 ms, docs/performance.md).
  await knex.raw(
    `CREATE VIRTUAL TABLE ${fts} USING fts5(${SEARCH_COLUMN}, content='${table}', content_rowid='id', tokenize='unicode61 remove_diacritics 0', detail=none, prefix='4 5')`,
  );
  // An external-content index is told the old words to forget, exactly as the row held them; it
  // holds only rows that have words (a row stored before the index has none until it is filled).
  const forget = (row: 'old') => `INSERT INTO ${fts} (${fts}, rowid, ${column}) SELECT 'delete', ${row}.id, ${row}.${column} WHERE ${row}.${column} IS NOT NULL;`;
  const learn = (row: 'new') => `INSERT INTO ${fts} (rowid, ${column}) SELECT ${row}.id, ${row}.${column} WHERE ${row}.${column} IS NOT NULL;`;
  await knex.raw(`CREATE TRIGGER ${quote(`${table}_search_insert`)} AFTER INSERT ON ${quote(table)} BEGIN ${learn('new')} END`);
  await knex.raw(`CREATE TRIGGER ${quote(`${table}_search_delete`)} AFTER DELETE ON ${quote(table)} BEGIN ${forget('old')} END`);
  await knex.raw(`CREATE TRIGGER ${quote(`${table}_search_update`)} AFTER UPDATE OF ${column} ON ${quote(table)} BEGIN ${forget('old')} ${learn('new')} END`);
}

export async function dropSearchIndex(knex: Knex, table: string): Promise<void> {
  if (dialectOf(knex) === 'mysql') {
    await knex.raw(`ALTER TABLE ${quote(table)} DROP INDEX ${quote(fulltextIndex(table))}`);
  } else {
    for (const trigger of ['insert', 'delete', 'update']) await knex.raw(`DROP TRIGGER IF EXISTS ${quote(`${table}_search_${trigger}`)}`);
    await knex.raw(`DROP TABLE IF EXISTS ${quote(ftsTable(table))}`);
  }
  await knex.schema.alterTable(table, (t) => {
    t.dropColumn(SEARCH_COLUMN);
  });
}

const ROWS_PER_READ = 1000;

/**
 * Writes the words of `table`'s rows from their `columns`, a thousand rows at a time: all of them
 * (a migration that adds or changes a table's searched columns), or those that have none yet
 * (rows written without the pipeline: the first start's reference data). Returns how many changed.
 */
export async function fillSearchWords(
  knex: Knex,
  table: string,
  columns: readonly string[],
  words: (row: Record<string, unknown>) => string | null,
  { missingOnly = false } = {},
): Promise<number> {
  let after = 0;
  let changed = 0;
  for (;;) {
    const query = knex(table)
      .select('id', SEARCH_COLUMN, ...columns)
      .where('id', '>', after)
      .orderBy('id')
      .limit(ROWS_PER_READ);
    if (missingOnly) query.whereNull(SEARCH_COLUMN);
    const rows: Record<string, unknown>[] = await query;
    if (rows.length === 0) return changed;
    after = Number(rows.at(-1)!.id);
    const updates = rows.flatMap((row) => {
      const text = words(row);
      return text === (row[SEARCH_COLUMN] ?? null) ? [] : [{ id: Number(row.id), values: { [SEARCH_COLUMN]: text } }];
    });
    // No transaction of its own: a migration runs in one, and each statement leaves whole rows.
    if (updates.length > 0) await updateEach(knex, table, updates);
    changed += updates.length;
  }
}
