import type { FilterDef } from '../../definition/types.ts';
import type { Condition } from '../../sql/quote.ts';

/** A filter kind: turns the raw `filter[name]` string into a value, then into a SQL condition. */
export interface FilterKind<T = unknown> {
  /** Returns the parsed value, or a message for a 422 on `filter[name]`. */
  parse(raw: string, filter: FilterDef): { value: T } | { error: string };
  /** The condition on `column` (quoted, qualified); none when the value asks for nothing. */
  condition(value: T, column: string, filter: FilterDef, context: FilterContext): Condition | undefined;
}

export interface FilterContext {
  /** The column's LIKE already ignores case (engine/schema/column-bounds.ts). */
  likeIgnoresCase: boolean;
  /** The zone whose days a date filter on a datetime means (the list's `tz`, else the company's). */
  timeZone: string;
}
