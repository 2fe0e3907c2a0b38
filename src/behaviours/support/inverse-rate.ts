import type { ComputedField } from '../../../engine/index.ts';

/** 1 / rate, unrounded; null when the rate is 0 (no inverse exists). */
export const inverseRate: ComputedField = (row) => {
  const rate = Number(row.rate);
  return Number.isFinite(rate) && rate !== 0 ? 1 / rate : null;
};
