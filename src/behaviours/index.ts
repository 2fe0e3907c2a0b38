// The one place where behaviour names used in resources/*.yaml map to their implementations.
import type { Behaviours } from '../../engine/index.ts';
import { inverseRate } from './support/inverse-rate.ts';

export const behaviours: Behaviours = {
  hooks: {},
  computed: {
    'support.inverseRate': inverseRate,
  },
};
