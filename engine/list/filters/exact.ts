// filter[f]=v → f = v. Commas are kept: only `list` filters split.
import type { FilterKind } from './types.ts';
import { parseTypedValue } from './typed-value.ts';

export const exact: FilterKind<string | number | boolean> = {
  parse: parseTypedValue,
  apply(query, value, filter, def) {
    query.where(`${def.table}.${filter.fieldName}`, value);
  },
};
