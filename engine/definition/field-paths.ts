// `uom_id` or `relation.column` in a definition (a sequence's prefix, a default's source, a
// reference's domain): a stored field of the record, or of the record a belongsTo relation names.
import { didYouMean } from './suggest.ts';
import type { ResourceDef } from './types.ts';

/** A boot check of such paths on `def`: a problem at `at` for a path that names nothing stored. */
export function fieldPathCheck(def: ResourceDef, resources: ReadonlyMap<string, ResourceDef>, problem: (at: string, message: string) => void) {
  return (at: string, value: string): void => {
    const [first, column] = value.split('.') as [string, string | undefined];
    if (column === undefined) {
      if (!def.fields.get(first)?.stored) problem(at, `"${first}" is not a field of this resource${didYouMean(first, def.fields.keys())}`);
      return;
    }
    const relation = def.relations.get(first);
    if (relation?.kind !== 'belongsTo') {
      problem(at, `"${first}" is not a belongsTo relation of this resource${didYouMean(first, def.relations.keys())}`);
      return;
    }
    const target = resources.get(relation.resource);
    if (target && !target.fields.get(column)?.stored) problem(at, `"${column}" is not a field of ${target.name}${didYouMean(column, target.fields.keys())}`);
  };
}
