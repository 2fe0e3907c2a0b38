// Whether a stored row has one of the values a definition lists for a column (a lock's or an
// action's `when`): as text, and a boolean column as true or false whatever the database returns
// (1, '1', true). A lock may instead name the one value a column must not have (`{'<>': null}`).
import type { ResourceDef } from './types.ts';

type Plain = string | number | boolean;
export type Match = Readonly<Record<string, ReadonlyArray<Plain> | { readonly '<>': Plain | null }>>;

export const truth = (value: unknown) => value === true || value === 'true' || (value !== false && value !== 'false' && Number(value) !== 0 && value != null);

export function matches(def: ResourceDef, when: Match, row: Record<string, unknown>): boolean {
  return Object.entries(when).every(([column, allowed]) => {
    const value = row[column];
    const boolean = def.fields.get(column)?.type === 'boolean';
    const same = (one: Plain | null) => (one === null ? value == null : boolean ? truth(one) === truth(value) : String(one) === String(value));
    return Array.isArray(allowed) ? allowed.some(same) : !same((allowed as { '<>': Plain | null })['<>']);
  });
}
