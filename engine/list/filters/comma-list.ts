// filter[f]=1,2,3 → f IN (1, 2, 3). Blank items are ignored.
import type { FilterKind } from './types.ts';
import { isOneOf } from '../../sql/conditions.ts';
import { parseTypedValue } from './typed-value.ts';

export const list: FilterKind<Array<string | number | boolean>> = {
  parse(raw, filter) {
    const values: Array<string | number | boolean> = [];
    for (const item of raw
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const parsed = parseTypedValue(item, filter);
      if ('error' in parsed) return { error: parsed.error.replace('value must be', 'values must each be') };
      values.push(parsed.value);
    }
    return { value: values };
  },
  condition: (values, column) => (values.length > 0 ? isOneOf(column, values) : undefined),
};
