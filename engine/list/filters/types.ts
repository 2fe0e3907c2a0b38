import type { QueryBuilder, Model } from 'objection';
import type { FilterDef, ResourceDef } from '../../definition/types.ts';

export type Query = QueryBuilder<Model, Model[]>;

/** A filter kind: turns the raw `filter[name]` string into a value, then narrows the query. */
export interface FilterKind<T = unknown> {
  /** Returns the parsed value, or a message for a 422 on `filter[name]`. */
  parse(raw: string, filter: FilterDef): { value: T } | { error: string };
  apply(query: Query, value: T, filter: FilterDef, def: ResourceDef): void;
}
