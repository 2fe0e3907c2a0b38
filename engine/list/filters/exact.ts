// filter[f]=v → f = v. Commas are kept: only `list` filters split.
import type { FilterKind } from './types.ts';
import { parseTypedValue } from './typed-value.ts';

export const exact: FilterKind<string | number | boolean> = {
  parse: parseTypedValue,
  condition: (value, column) => ({ sql: `${column} = ?`, params: [value] }),
};
