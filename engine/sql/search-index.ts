// The index `search=` reads (engine/rules/search.ts keeps its words): each searched table has a
// `search_words` column, the row's words worked out in JavaScript (engine/definition/search-words.ts),
// and beside it `<table>_search`, which finds the rows by the start of a word:
// - SQLite: an FTS5 external-content table, kept in step with the column by triggers, in the
//   write's transaction.
// - MySQL/MariaDB: a table of (word, id) pairs, its primary key ordered by word, which the engine
//   writes beside the row in the same transaction (keepWords, and wordsInsert on the create's fast
//   path); a row's pairs go with it (ON DELETE CASCADE). InnoDB's FULLTEXT index read every word
//   a short term starts and all their rows: `zur` over 1,000,000 partners took 500 ms for the count
//   alone, against one range of this key (docs/performance.md). No trigger: a server with binary
//   logging refuses a trigger to a user without SUPER.
import type { Knex } from 'knex';
import { SEARCH_COLUMN } from '../definition/search.ts';
import { MAX_STORED_WORD_LENGTH } from '../definition/search-words.ts';
import { dialectOf, tableOptions, type Dialect } from './dialect.ts';
import { placeholders, quote, type Condition } from './quote.ts';
import { updateEach } from './update-each.ts';

/** The index beside `table`: FTS5's table on SQLite, the (word, id) pairs on MySQL/MariaDB. */
const searchTable = (table: string) => `${table}_search`;

/** The rows with a word starting with each term (marked as stored: engine/definition/search-words.ts): the search's condition in a list's WHERE. */
export function searchCondition(dialect: Dialect, table: string, terms: readonly string[]): Condition {
  if (dialect === 'sqlite') {
    // A quoted term followed by `*` is a prefix: FTS5 reads nothing else in it (the words hold only letters and digits).
    const match = terms.map((term) => `"${term}"*`).join(' AND ');
    return { sql: `${quote(`${table}.id`)} IN (SELECT rowid FROM ${quote(searchTable(table))} WHERE ${quote(searchTable(table))} MATCH ?)`, params: [match] };
  }
  // A term is letters and digits (parseSearch): nothing in it is a LIKE wildcard; its start is a range of the key.
  const pairs = quote(searchTable(table));
  const [first, ...others] = terms.map((term) => `${term}%`);
  if (others.length === 0) return { sql: `${quote(`${table}.id`)} IN (SELECT ${quote('id')} FROM ${pairs} WHERE ${quote('word')} LIKE ?)`, params: [first] };
  // Several terms: the ids that have them all, found among the pairs alone (each further term
  // through the index by id) before a row is read. As separate IN lists, MariaDB read the row of
  // every id of the first term before testing the next: `zürich ärzte` 250 ms against 25.
  const joins = others.map(
    (_, n) => ` JOIN ${pairs} ${quote(`t${n + 1}`)} ON ${quote(`t${n + 1}`)}.${quote('id')} = ${quote('t0')}.${quote('id')} AND ${quote(`t${n + 1}`)}.${quote('word')} LIKE ?`,
  );
  return {
    sql: `${quote(`${table}.id`)} IN (SELECT ${quote('all_terms')}.${quote('id')} FROM (SELECT DISTINCT ${quote('t0')}.${quote('id')} FROM ${pairs} ${quote('t0')}${joins.join('')} WHERE ${quote('t0')}.${quote('word')} LIKE ?) ${quote('all_terms')})`,
    params: [...others, first],
  };
}

/** The words of a stored `search_words` (each once: engine/definition/search-words.ts). */
function indexedWords(words: string | null): string[] {
  return words ? words.split(' ') : [];
}

/**
 * The INSERT of a new row's pairs on MySQL/MariaDB (the create's fast path runs it with its
 * prepared statements); undefined on SQLite, whose triggers follow the column, or without words.
 */
export function wordsInsert(dialect: Dialect, table: string, id: number, words: string | null): Condition | undefined {
  const list = dialect === 'mysql' ? indexedWords(words) : [];
  if (list.length === 0) return undefined;
  return {
    sql: `INSERT INTO ${quote(searchTable(table))} (${quote('word')}, ${quote('id')}) VALUES ${list.map(() => `(${placeholders(2)})`).join(', ')}`,
    params: list.flatMap((word) => [word, id]),
  };
}

const PAIRS_PER_INSERT = 1000;

/**
 * Makes the pairs of these rows of `table` say their new words (`search_words` as just written),
 * in the caller's transaction: a new row's are added, an updated one's replaced (`fresh`: rows
 * that have none yet). Nothing on SQLite, whose FTS5 triggers follow the column.
 */
export async function keepWords(knex: Knex | Knex.Transaction, table: string, rows: ReadonlyArray<{ id: number; words: string | null }>, { fresh = false } = {}): Promise<void> {
  if (rows.length === 0 || dialectOf(knex) !== 'mysql') return;
  if (!fresh)
    await knex(searchTable(table))
      .whereIn(
        'id',
        rows.map((row) => row.id),
      )
      .delete();
  const pairs = rows.flatMap(({ id, words }) => indexedWords(words).map((word) => ({ word, id })));
  for (let start = 0; start < pairs.length; start += PAIRS_PER_INSERT) await knex(searchTable(table)).insert(pairs.slice(start, start + PAIRS_PER_INSERT));
}

/** Gives `table` its words column and their index (a migration's). */
export async function addSearchIndex(knex: Knex, table: string): Promise<void> {
  await knex.schema.alterTable(table, (t) => {
    t.text(SEARCH_COLUMN).nullable();
  });
  if (dialectOf(knex) === 'mysql') {
    await addWordPairs(knex, table);
    return;
  }
  const fts = quote(searchTable(table));
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

/**
 * The (word, id) pairs of `table` on MySQL/MariaDB, by word then id (a term's start is one range),
 * with an index by id for replacing a row's; binary: the words are already folded, and compared
 * as written.
 */
export async function addWordPairs(knex: Knex, table: string): Promise<void> {
  const pairs = quote(searchTable(table));
  await knex.raw(
    `CREATE TABLE ${pairs} (${quote('word')} VARCHAR(${MAX_STORED_WORD_LENGTH}) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, ${quote('id')} INT UNSIGNED NOT NULL, ` +
      `PRIMARY KEY (${quote('word')}, ${quote('id')}), KEY ${quote(`${searchTable(table)}_id_index`)} (${quote('id')}), ` +
      `CONSTRAINT ${quote(`${searchTable(table)}_id_foreign`)} FOREIGN KEY (${quote('id')}) REFERENCES ${quote(table)} (${quote('id')}) ON DELETE CASCADE)${tableOptions(knex)}`,
  );
}

/**
 * The pairs of the rows of `table` that have words, from their `search_words` (a table whose words
 * were indexed another way before: the FULLTEXT index of migration 20261206000001; rows written
 * straight to the table). Returns how many rows.
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

export async function dropSearchIndex(knex: Knex, table: string): Promise<void> {
  if (dialectOf(knex) !== 'mysql') for (const trigger of ['insert', 'delete', 'update']) await knex.raw(`DROP TRIGGER IF EXISTS ${quote(`${table}_search_${trigger}`)}`);
  await knex.raw(`DROP TABLE IF EXISTS ${quote(searchTable(table))}`);
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
    await keepWords(
      knex,
      table,
      updates.map(({ id, values }) => ({ id, words: values[SEARCH_COLUMN] as string | null })),
    );
    changed += updates.length;
  }
}
