// filter[f]=true|false|1|0. `false` and `0` filter too; anything else is a 422, not a cast.
import { equals } from '../../sql/conditions.ts';
import type { FilterKind } from './types.ts';
import { parseBoolean } from './typed-value.ts';

export const boolean: FilterKind<boolean> = {
  parse: parseBoolean,
  condition: (value, column) => equals(column, value),
};
