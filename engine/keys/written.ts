// What the steps (engine/keys/, engine/write/steps.ts) read of the records a write updated.
import type { Written } from './types.ts';

/** Updates that wrote some column (not only nested records or links). */
export const wroteColumns = (written: Written[]) => written.filter(({ columns }) => columns && Object.keys(columns).length > 0);
