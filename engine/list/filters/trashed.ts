// filter[trashed]=with|only shows soft-deleted rows; any other value keeps the default (hidden).
import type { TrashedMode } from '../../sql/resource-rows.ts';
import type { FilterKind } from './types.ts';

export const trashed: FilterKind<TrashedMode> = {
  parse(raw, filter) {
    const value = raw.toLowerCase();
    return { value: filter.values.includes(value as TrashedMode) ? (value as TrashedMode) : 'without' };
  },
  // Applied by the list runner together with the default soft-delete scope.
  condition: () => undefined,
};
