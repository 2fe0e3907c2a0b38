// `search`: a record's words (engine/definition/search-words.ts) are stored with it, in its row's
// `search_words`, whenever a write sets one of its table's searched columns; the index follows in
// the same transaction (the (word, id) pairs: engine/sql/search-index.ts).
import type { Knex } from 'knex';
import type { Registry } from '../definition/registry.ts';
import { SEARCH_COLUMN } from '../definition/search.ts';
import type { ResourceDef } from '../definition/types.ts';
import { fillSearchWords, keepWords } from '../sql/search-index.ts';
import { storedWords } from '../definition/search-words.ts';
import { fillTemplate, templateFields } from '../keys/template.ts';

/** The words of a row of `def`'s table, from its searched columns. */
export function wordsOfRow(def: Pick<ResourceDef, 'searchColumns'>, row: Record<string, unknown>): string | null {
  return storedWords(def.searchColumns.map((column) => row[column]));
}

/** Whether a write of these values changes the record's words. */
export function changesWords(def: ResourceDef, values: Record<string, unknown>): boolean {
  return def.searchColumns.some((column) => values[column] !== undefined);
}

/**
 * Adds the record's new words to the columns a write sets (a new record's, or an update's that
 * sets a searched column: `current` is the row as stored, for the columns it leaves as they are).
 */
export function addWords(def: ResourceDef, values: Record<string, unknown>, current?: Record<string, unknown>): void {
  if (def.searchColumns.length === 0 || (current && !changesWords(def, values))) return;
  values[SEARCH_COLUMN] = wordsOfRow(def, current ? { ...current, ...values } : values);
}

/**
 * Adds their new words to rows a set-based write sets searched columns of (a product's variants
 * renamed with it): from the values when they give every searched column, else with the others
 * read once for all the rows, and their pairs replaced. Every row gives the same
 * columns (engine/sql/update-each.ts).
 */
export async function addWordsToRows(trx: Knex.Transaction, def: ResourceDef, rows: ReadonlyArray<{ id: number; values: Record<string, unknown> }>): Promise<void> {
  if (rows.length === 0 || !changesWords(def, rows[0]!.values)) return;
  const unset = def.searchColumns.filter((column) => rows[0]!.values[column] === undefined);
  const stored = new Map<number, Record<string, unknown>>();
  for (let start = 0; unset.length > 0 && start < rows.length; start += IDS_PER_READ) {
    const ids = rows.slice(start, start + IDS_PER_READ).map((row) => row.id);
    for (const row of await trx(def.table)
      .whereIn('id', ids)
      .select('id', ...unset))
      stored.set(Number(row.id), row);
  }
  for (const row of rows) row.values[SEARCH_COLUMN] = wordsOfRow(def, { ...stored.get(row.id), ...row.values });
  await keepWords(
    trx,
    def.table,
    rows.map((row) => ({ id: row.id, words: row.values[SEARCH_COLUMN] as string | null })),
  );
}

/**
 * Updates one stored row with `values` outside the pipeline's update (an action's number or
 * `set:`): with its new words when they change (`current`: the row as stored), and their pairs
 * (engine/sql/search-index.ts).
 */
export async function updateRowWithWords(trx: Knex.Transaction, def: ResourceDef, id: number, values: Record<string, unknown>, current: Record<string, unknown>): Promise<void> {
  addWords(def, values, current);
  await trx(def.table).where('id', id).update(values);
  if (values[SEARCH_COLUMN] !== undefined) await keepWords(trx, def.table, [{ id, words: values[SEARCH_COLUMN] as string | null }]);
}

const IDS_PER_READ = 500;

/** The searched fields a template writes once the record has its id (a purchase agreement's `BO/7`). */
export function templatedWords(def: ResourceDef): boolean {
  return templateFields(def).some((field) => def.searchColumns.includes(field.name));
}

/** The words of a record whose templated names are written now, from its values and id. */
export function wordsWithTemplates(def: ResourceDef, id: number, row: Record<string, unknown>): string | null {
  const named: Record<string, unknown> = { ...row, id };
  for (const field of templateFields(def)) named[field.name] = fillTemplate(field.template!, named);
  return wordsOfRow(def, named);
}

/**
 * Writes the words of the rows that have none though they have searched values: rows written
 * without the pipeline (the first start's reference data, a row inserted by hand). Returns how many.
 */
export async function fillMissingWords(knex: Knex, registry: Registry): Promise<number> {
  const tables = new Map(registry.all().map((def) => [def.table, def] as const));
  let filled = 0;
  for (const [table, def] of tables) {
    // A table a new definition has not been migrated for yet has no words to fill.
    if (def.searchColumns.length > 0 && (await knex.schema.hasColumn(table, SEARCH_COLUMN)))
      filled += await fillSearchWords(knex, table, def.searchColumns, (row) => wordsOfRow(def, row), { missingOnly: true });
  }
  return filled;
}
