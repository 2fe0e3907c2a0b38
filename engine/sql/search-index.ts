// The index `search=` reads (engine/keys/search.ts keeps its words): each searched table has a
// `search_words` column, the row's words worked out in JavaScript (engine/definition/search-words.ts),
// and beside it `<table>_search`, a table of (word, id) pairs whose primary key is ordered by word,
// so a term's start is one range of the key. The engine writes the pairs beside the row in the
// same transaction (keepWords, and wordsInsert on the create's fast path); a row's pairs go with it
// (ON DELETE CASCADE). The same table and the same statements on both databases:
// - MySQL/MariaDB replaced a FULLTEXT index (20261206000002): InnoDB's full-text search read every
//   word a short term starts and all their rows (`zur` over 1,000,000 partners: 500 ms for the
//   count alone), and a trigger would need SUPER on a server with binary logging.
// - SQLite replaced FTS5 (20261206000003): at each commit FTS5 wrote the transaction's words as a
//   segment of its own (60 µs a one-row insert against 32 with the pairs, docs/performance.md),
//   and its triggers went with the table whenever SQLite rebuilt it for a migration.
import type { Knex } from 'knex';
import { SEARCH_COLUMN } from '../definition/search-words.ts';
import { MAX_STORED_WORD_LENGTH } from '../definition/search-words.ts';
import { dialectOf, tableOptions } from './dialect.ts';
import { placeholders, quote, type Condition } from './quote.ts';
import { updateEach } from './update-each.ts';

/** The (word, id) pairs beside `table`. */
export const searchTable = (table: string) => `${table}_search`;

/**
 * The first string after every word that starts with `term`, in the binary order both databases
 * keep the words in (UTF-8's byte order is the code points' order): the term with its last
 * character one code point higher. A term is letters and digits (parseSearch), never U+10FFFF.
 */
function afterPrefix(term: string): string {
  const chars = [...term];
  const last = chars.pop()!.codePointAt(0)!;
  // The surrogates are no characters: the one after U+D7FF is U+E000.
  return chars.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
}

/** The rows with a word starting with each term (marked as stored: engine/definition/search-words.ts): the search's condition in a list's WHERE. */
export function searchCondition(table: string, terms: readonly string[]): Condition {
  const pairs = quote(searchTable(table));
  const idsOf = `SELECT ${quote('id')} FROM ${pairs} WHERE ${quote('word')} >= ? AND ${quote('word')} < ?`;
  const params = terms.flatMap((term) => [term, afterPrefix(term)]);
  if (terms.length === 1) return { sql: `${quote(`${table}.id`)} IN (${idsOf})`, params };
  // Several terms: the ids that have them all, found among the pairs alone before a row is read,
  // as a derived table (MariaDB then reads it once, not once a row). Joining the pairs by id
  // instead, SQLite started from the commoner term (`zürich ärzte`: 65 ms against 4) and MariaDB
  // took 40-290 ms against 10-20 (docs/performance.md). INTERSECT: MariaDB 10.3, MySQL 8.0.31.
  return {
    sql: `${quote(`${table}.id`)} IN (SELECT ${quote('all_terms')}.${quote('id')} FROM (${terms.map(() => idsOf).join(' INTERSECT ')}) ${quote('all_terms')})`,
    params,
  };
}

/** The words of a stored `search_words` (each once: engine/definition/search-words.ts). */
function indexedWords(words: string | null): string[] {
  return words ? words.split(' ') : [];
}

/** The INSERT of these pairs, one row each in its VALUES (knex writes SQLite's as a compound SELECT, at most 500 terms). */
function pairsInsert(table: string, pairs: ReadonlyArray<{ word: string; id: number }>): Condition {
  return {
    sql: `INSERT INTO ${quote(searchTable(table))} (${quote('word')}, ${quote('id')}) VALUES ${pairs.map(() => `(${placeholders(2)})`).join(', ')}`,
    params: pairs.flatMap(({ word, id }) => [word, id]),
  };
}

/** The INSERT of a new row's pairs (the create's fast path runs it with its prepared statements); undefined without words. */
export function wordsInsert(table: string, id: number, words: string | null): Condition | undefined {
  const list = indexedWords(words);
  return list.length === 0
    ? undefined
    : pairsInsert(
        table,
        list.map((word) => ({ word, id })),
      );
}

const PAIRS_PER_INSERT = 1000;

/**
 * Makes the pairs of these rows of `table` say their new words (`search_words` as just written),
 * in the caller's transaction: a new row's are added, an updated one's replaced (`fresh`: rows
 * that have none yet).
 */
export async function keepWords(knex: Knex | Knex.Transaction, table: string, rows: ReadonlyArray<{ id: number; words: string | null }>, { fresh = false } = {}): Promise<void> {
  if (rows.length === 0) return;
  if (!fresh)
    await knex(searchTable(table))
      .whereIn(
        'id',
        rows.map((row) => row.id),
      )
      .delete();
  const pairs = rows.flatMap(({ id, words }) => indexedWords(words).map((word) => ({ word, id })));
  for (let start = 0; start < pairs.length; start += PAIRS_PER_INSERT) {
    const insert = pairsInsert(table, pairs.slice(start, start + PAIRS_PER_INSERT));
    await knex.raw(insert.sql, insert.params as Knex.RawBinding[]);
  }
}

/** Gives `table` its words column and their pairs (a migration's). */
export async function addSearchIndex(knex: Knex, table: string): Promise<void> {
  await knex.schema.alterTable(table, (t) => {
    t.text(SEARCH_COLUMN).nullable();
  });
  await addWordPairs(knex, table);
}

/**
 * The (word, id) pairs of `table`, by word then id (a term's start is one range), with an index by
 * id for replacing a row's; binary: the words are already folded, and compared as written.
 */
export async function addWordPairs(knex: Knex, table: string): Promise<void> {
  const pairs = quote(searchTable(table));
  const byId = quote(`${searchTable(table)}_id_index`);
  const columns = `PRIMARY KEY (${quote('word')}, ${quote('id')}), CONSTRAINT ${quote(`${searchTable(table)}_id_foreign`)} FOREIGN KEY (${quote('id')}) REFERENCES ${quote(table)} (${quote('id')}) ON DELETE CASCADE`;
  if (dialectOf(knex) === 'mysql') {
    await knex.raw(
      `CREATE TABLE ${pairs} (${quote('word')} VARCHAR(${MAX_STORED_WORD_LENGTH}) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, ${quote('id')} INT UNSIGNED NOT NULL, ` +
        `${columns}, KEY ${byId} (${quote('id')}))${tableOptions(knex)}`,
    );
    return;
  }
  // WITHOUT ROWID: the table is its primary key, as InnoDB's is (SQLite compares TEXT as bytes).
  await knex.raw(`CREATE TABLE ${pairs} (${quote('word')} TEXT NOT NULL, ${quote('id')} INTEGER NOT NULL, ${columns}) WITHOUT ROWID`);
  await knex.raw(`CREATE INDEX ${byId} ON ${pairs} (${quote('id')})`);
}

/**
 * The pairs of the rows of `table` that have words, from their `search_words` (a table whose words
 * were indexed another way before: MariaDB's FULLTEXT index, SQLite's FTS5; rows written straight
 * to the table). Returns how many rows.
 */
export async function fillWordPairs(knex: Knex, table: string): Promise<number> {
  let after = 0;
  let filled = 0;
  for (;;) {
    const rows: Array<{ id: number; words: string | null }> = await knex(table)
      .select('id', `${SEARCH_COLUMN} as words`)
      .where('id', '>', after)
      .whereNotNull(SEARCH_COLUMN)
      .orderBy('id')
      .limit(ROWS_PER_READ);
    if (rows.length === 0) return filled;
    after = Number(rows.at(-1)!.id);
    // Pairs a row may have already (written by the pipeline since) are replaced, not doubled.
    await keepWords(
      knex,
      table,
      rows.map((row) => ({ id: Number(row.id), words: row.words })),
    );
    filled += rows.length;
  }
}

/**
 * The table naming, for each searched table, the columns its stored words were made from, as the
 * migrations left them (20261206000004): make:migration compares it with the definitions and
 * writes the migration that makes the words again when a definition searches other fields.
 */
export const SEARCH_COLUMNS_TABLE = 'search_columns';

/** Records that `table`'s words are now made from `columns` (a migration's, after it filled them). */
export async function recordSearchColumns(knex: Knex | Knex.Transaction, table: string, columns: readonly string[]): Promise<void> {
  await knex(SEARCH_COLUMNS_TABLE).where('table_name', table).delete();
  await knex(SEARCH_COLUMNS_TABLE).insert({ table_name: table, columns: [...columns].sort().join(',') });
}

/** What each searched table's words were made from; empty before 20261206000004. */
export async function readSearchColumns(knex: Knex): Promise<Map<string, readonly string[]>> {
  if (!(await knex.schema.hasTable(SEARCH_COLUMNS_TABLE))) return new Map();
  const rows: Array<{ table_name: string; columns: string }> = await knex(SEARCH_COLUMNS_TABLE).select('table_name', 'columns');
  return new Map(rows.map((row) => [row.table_name, row.columns ? row.columns.split(',') : []]));
}

/** Takes `table`'s words column, their pairs and the record of what they were made from away (a migration's). */
export async function dropSearchIndex(knex: Knex, table: string): Promise<void> {
  await knex.raw(`DROP TABLE IF EXISTS ${quote(searchTable(table))}`);
  await knex.schema.alterTable(table, (t) => {
    t.dropColumn(SEARCH_COLUMN);
  });
  // Before 20261206000004 (rolling back past it) there is no record to take away.
  if (await knex.schema.hasTable(SEARCH_COLUMNS_TABLE)) await knex(SEARCH_COLUMNS_TABLE).where('table_name', table).delete();
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
    await keepWords(
      knex,
      table,
      updates.map(({ id, values }) => ({ id, words: values[SEARCH_COLUMN] as string | null })),
    );
    changed += updates.length;
  }
}
