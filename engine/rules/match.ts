// Whether a stored row has one of the values a definition lists for a column (a lock's or an
// action's `when`): as text, and a boolean column as true or false whatever the database returns
// (1, '1', true).
import type { ResourceDef } from '../definition/types.ts';

export type Match = Readonly<Record<string, ReadonlyArray<string | number | boolean>>>;

export const truth = (value: unknown) => value === true || value === 'true' || (value !== false && value !== 'false' && Number(value) !== 0 && value != null);

export function matches(def: ResourceDef, when: Match, row: Record<string, unknown>): boolean {
  return Object.entries(when).every(([column, allowed]) => {
    const value = row[column];
    if (def.fields.get(column)?.type === 'boolean') return allowed.some((one) => truth(one) === truth(value));
    return allowed.some((one) => String(one) === String(value));
  });
}
