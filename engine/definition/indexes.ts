// A definition's `indexes`: indexes of several columns that its lists need (a category's live UOMs
// by name: [category_id, deleted_at, name]). make:migration writes them under the names below;
// the definition-driven suite checks that the migrated schema has them and that the lists they
// serve read in their order. Checked at boot: stored columns only, a name MySQL accepts, no index twice.
import type { ResourceDef } from './types.ts';
import { didYouMean } from './suggest.ts';

/** MySQL's longest identifier. */
const MAX_NAME = 64;

/** The index's name, as knex names an index it is not given one for. */
export function indexName(table: string, columns: readonly string[]): string {
  return `${table}_${columns.join('_')}_index`.toLowerCase();
}

export function checkIndexes(def: ResourceDef, problem: (at: string, message: string) => void): void {
  const seen = new Set<string>();
  def.indexes.forEach((columns, index) => {
    const at = `indexes.${index}`;
    for (const column of columns) {
      if (!def.fields.get(column)?.stored) problem(at, `"${column}" is not a stored column of ${def.table}${didYouMean(column, def.fields.keys())}`);
    }
    const name = indexName(def.table, columns);
    if (name.length > MAX_NAME) problem(at, `its name ${name} is longer than the ${MAX_NAME} characters MySQL allows`);
    if (seen.has(name)) problem(at, 'the same columns are indexed twice');
    seen.add(name);
  });
}
