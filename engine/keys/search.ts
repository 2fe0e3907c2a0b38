// `search:` (top level): the fields whose words `search=` finds a resource's records by (its list,
// grouped totals and export). By default the display field and the codes a person types
// (`reference`, `code`, `email`, `barcode`); `search: [account_number]` names others, `search: false`
// offers none.
//
// A record's words (engine/definition/search-words.ts) are stored with it, in its row's
// `search_words`, whenever a write sets one of its table's searched columns; the (word, id) pairs
// follow in the same transaction (engine/sql/search-index.ts). The words are stored per table, so
// every definition on one table stores the words of the fields any of them searches (a customer's
// and an address's are one row).
import { Type } from '@sinclair/typebox';
import type { Knex } from 'knex';
import { displayField } from '../definition/display-field.ts';
import type { Registry } from '../definition/registry.ts';
import { SEARCH_COLUMN, storedWords } from '../definition/search-words.ts';
import { didYouMean } from '../definition/suggest.ts';
import type { ResourceDef } from '../definition/types.ts';
import { fillSearchWords, keepWords } from '../sql/search-index.ts';
import { fillTemplate, templateFields } from './template.ts';
import type { RuleKey } from './types.ts';
import { wroteColumns } from './written.ts';

/** Besides the display field, the codes a person types to find a record, searched where a resource stores them. */
const SEARCHED_CODES = ['reference', 'code', 'email', 'barcode'] as const;

const Name = Type.String({ pattern: '^[a-z][a-z0-9_]*$' });

export const search: RuleKey = {
  key: 'search',
  format: {
    at: 'resource',
    schema: Type.Union([Type.Array(Name, { minItems: 1, uniqueItems: true }), Type.Literal(false)], {
      description: 'the fields `search=` finds records by (default: the display field and `reference`, `code`, `email`, `barcode`); `false`: no search',
    }),
  },
  // After `tree:`'s (RULE_KEYS' order): a tree's full name is not searched by default.
  normalize(raw, def) {
    const declared = raw as readonly string[] | false | undefined;
    if (declared) declaredSearch.set(def, declared);
    def.search = searchFields(def, declared);
  },
  check(def, _resources, problem) {
    const declared = declaredSearch.get(def);
    if (!declared) return;
    if (!def.operations.has('list')) problem('search', 'only a resource with a list can be searched');
    declared.forEach((name, index) => {
      if (!isText(def, name)) problem(`search.${index}`, `"${name}" is not a stored text field of this resource${didYouMean(name, def.fields.keys())}`);
      else if (rewrittenInBulk(def, name))
        problem(`search.${index}`, `"${name}" is rewritten by other records' writes (a copy, or a tree's full name): search the field it is made from`);
    });
  },
  resolve: resolveSearchColumns,
  // The record's words, from its values as every rule before it and the behaviours left them.
  // Set-based writes keep them too (engine/write/writers.ts), as do an action's number and `set:`.
  step: {
    key: 'search',
    uses: (def, _registry, phase) => phase !== 'remove' && def.searchColumns.length > 0,
    // A name a template writes after the insert is searched: its words are written with it.
    idle: (def) => !templatedWords(def),
    complete: (def, values) => addWords(def, values),
    beforeUpdate(_context, def, hooks) {
      for (const hook of hooks) addWords(def, hook.values, hook.record);
    },
    async afterInsert(context, def, written) {
      const rows = written.map(({ id, hook }) => ({
        id,
        words: templatedWords(def) ? wordsWithTemplates(def, id, hook.values) : ((hook.values[SEARCH_COLUMN] as string | null) ?? null),
      }));
      if (templatedWords(def))
        for (const { id, words } of rows)
          await context
            .trx(def.table)
            .where('id', id)
            .update({ [SEARCH_COLUMN]: words });
      await keepWords(context.trx, def.table, rows, { fresh: true });
    },
    async afterUpdate(context, def, written) {
      const rows: Array<{ id: number; words: string | null }> = [];
      for (const { id, columns, current } of wroteColumns(written)) {
        if (templatedWords(def)) {
          const words = wordsWithTemplates(def, id, { ...current, ...columns });
          await context
            .trx(def.table)
            .where('id', id)
            .update({ [SEARCH_COLUMN]: words });
          rows.push({ id, words });
        } else if (columns![SEARCH_COLUMN] !== undefined) rows.push({ id, words: columns![SEARCH_COLUMN] as string | null });
      }
      await keepWords(context.trx, def.table, rows);
    },
  },
};

/** The fields a definition names in its `search:`, for its check (the defaults need none). */
const declaredSearch = new WeakMap<ResourceDef, readonly string[]>();

const isText = (def: ResourceDef, name: string) => {
  const field = def.fields.get(name);
  return field?.stored === true && (field.type === 'string' || field.type === 'text');
};

/** A copy (`related`) or a tree's full name: other records' writes rewrite it in bulk, without the words following. */
function rewrittenInBulk(def: ResourceDef, name: string): boolean {
  return def.fields.get(name)?.related !== undefined || def.tree?.fullName?.field === name;
}

/** The fields `search=` looks in, as the definition declares them or by default. */
function searchFields(def: ResourceDef, declared: readonly string[] | false | undefined): string[] {
  if (declared === false || !def.operations.has('list')) return [];
  if (declared) return [...declared];
  const display = displayField(def);
  return [display, ...SEARCHED_CODES.filter((name) => name !== display && isText(def, name) && def.fields.get(name)!.output)].filter(
    (name): name is string => name !== undefined && !rewrittenInBulk(def, name),
  );
}

/** Every definition's `searchColumns`: the searched fields of all the definitions on its table, in a stable order. */
function resolveSearchColumns(resources: ReadonlyMap<string, ResourceDef>): void {
  const byTable = new Map<string, Set<string>>();
  for (const def of resources.values()) {
    const columns = byTable.get(def.table) ?? new Set<string>();
    for (const name of def.search) columns.add(name);
    byTable.set(def.table, columns);
  }
  for (const def of resources.values()) (def as { searchColumns: readonly string[] }).searchColumns = [...byTable.get(def.table)!].sort();
}

/** The words of a row of `def`'s table, from its searched columns. */
function wordsOfRow(def: Pick<ResourceDef, 'searchColumns'>, row: Record<string, unknown>): string | null {
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
function addWords(def: ResourceDef, values: Record<string, unknown>, current?: Record<string, unknown>): void {
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
function templatedWords(def: ResourceDef): boolean {
  return templateFields(def).some((field) => def.searchColumns.includes(field.name));
}

/** The words of a record whose templated names are written now, from its values and id. */
function wordsWithTemplates(def: ResourceDef, id: number, row: Record<string, unknown>): string | null {
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
