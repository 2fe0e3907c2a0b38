// filter[f]=v → f = v; filter[f]=v,w → f IN (v, w), as the original's exact filters (Spatie's
// AllowedFilter::exact) split a value on its commas. Blank items are ignored. `list` is the same.
import { equals } from '../../sql/conditions.ts';
import type { FilterKind } from './types.ts';
import { list } from './comma-list.ts';
import { parseTypedValue } from './typed-value.ts';

export const exact: FilterKind<Array<string | number | boolean>> = {
  parse(raw, filter) {
    // One value keeps the message of one value; several are read as a list.
    if (!raw.includes(',')) {
      const parsed = parseTypedValue(raw.trim(), filter);
      return 'error' in parsed ? parsed : { value: [parsed.value] };
    }
    return list.parse(raw, filter);
  },
  condition: (values, column, filter, context) => (values.length === 1 ? equals(column, values[0]) : list.condition(values, column, filter, context)),
};
