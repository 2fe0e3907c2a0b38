// A definition's `search`: the fields whose words `search=` finds its records by (its list, grouped
// totals and export). By default the display field and the codes a person types (`reference`,
// `code`, `email`, `barcode`); `search: [account_number]` names others, `search: false` offers none.
// The words are stored per table (engine/rules/search.ts), so every definition on one table stores
// the words of the fields any of them searches (a customer's and an address's are one row).
import { displayField } from './display-field.ts';
import { didYouMean } from './suggest.ts';
import type { ResourceDef } from './types.ts';

/** Besides the display field, the codes a person types to find a record, searched where a resource stores them. */
export const SEARCHED_CODES = ['reference', 'code', 'email', 'barcode'] as const;

/** The stored column holding a record's words (engine/definition/search-words.ts). */
export const SEARCH_COLUMN = 'search_words';

const isText = (def: ResourceDef, name: string) => {
  const field = def.fields.get(name);
  return field?.stored === true && (field.type === 'string' || field.type === 'text');
};

/** A copy (`related`) or a tree's full name: other records' writes rewrite it in bulk, without the words following. */
function rewrittenInBulk(def: ResourceDef, name: string): boolean {
  return def.fields.get(name)?.related !== undefined || def.tree?.fullName?.field === name;
}

/** The fields `search=` looks in, as the definition declares them or by default. */
export function searchFields(def: ResourceDef, declared: readonly string[] | false | undefined): string[] {
  if (declared === false || !def.operations.has('list')) return [];
  if (declared) return [...declared];
  const display = displayField(def);
  return [display, ...SEARCHED_CODES.filter((name) => name !== display && isText(def, name) && def.fields.get(name)!.output)].filter(
    (name): name is string => name !== undefined && !rewrittenInBulk(def, name),
  );
}

export function checkSearch(def: ResourceDef, declared: readonly string[] | false | undefined, problem: (at: string, message: string) => void): void {
  if (!declared) return;
  if (!def.operations.has('list')) problem('search', 'only a resource with a list can be searched');
  declared.forEach((name, index) => {
    if (!isText(def, name)) problem(`search.${index}`, `"${name}" is not a stored text field of this resource${didYouMean(name, def.fields.keys())}`);
    else if (rewrittenInBulk(def, name))
      problem(`search.${index}`, `"${name}" is rewritten by other records' writes (a copy, or a tree's full name): search the field it is made from`);
  });
}

/** Every definition's `searchColumns`: the searched fields of all the definitions on its table, in a stable order. */
export function resolveSearchColumns(resources: ReadonlyMap<string, ResourceDef>): void {
  const byTable = new Map<string, Set<string>>();
  for (const def of resources.values()) {
    const columns = byTable.get(def.table) ?? new Set<string>();
    for (const name of def.search) columns.add(name);
    byTable.set(def.table, columns);
  }
  for (const def of resources.values()) (def as { searchColumns: readonly string[] }).searchColumns = [...byTable.get(def.table)!].sort();
}
