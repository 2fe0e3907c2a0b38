// The one place where behaviour names used in resources/*.yaml map to their implementations.
import type { Behaviours } from '../../engine/index.ts';
import { appendToSortOrder } from './support/append-to-sort-order.ts';
import { inverseRate } from './support/inverse-rate.ts';

export const behaviours: Behaviours = {
  hooks: {
    'support.appendToSortOrder': appendToSortOrder,
  },
  computed: {
    'support.inverseRate': inverseRate,
  },
};
