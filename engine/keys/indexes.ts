// `indexes:` (top level): indexes of several columns that a resource's lists need (a category's
// live UOMs by name: [category_id, deleted_at, name]). make:migration writes them under the names
// of definition/indexes.ts; the definition-driven suite checks that the migrated schema has them
// and that the lists they serve read in their order. Checked at boot: stored columns only, a name
// MySQL accepts, no index twice.
import { Type } from '@sinclair/typebox';
import { Name } from '../definition/format.ts';
import { indexName } from '../definition/indexes.ts';
import { didYouMean } from '../definition/suggest.ts';
import type { RuleKey } from './types.ts';

/** MySQL's longest identifier. */
const MAX_NAME = 64;

export const indexes: RuleKey = {
  key: 'indexes',
  format: {
    at: 'resource',
    schema: Type.Array(Type.Array(Name, { minItems: 1, uniqueItems: true }), {
      minItems: 1,
      description:
        "indexes of several columns that the lists need: `[[category_id, deleted_at, name]]` lists a category's live records by name without a sort step, and counts them from the index alone",
    }),
  },
  normalize(raw, def) {
    def.indexes = (raw as string[][] | undefined) ?? [];
  },
  check(def, _resources, problem) {
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
  },
};
