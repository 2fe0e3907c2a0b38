import type { FilterDef } from '../../definition/types.ts';
import type { Condition } from '../../sql/quote.ts';
import type { SqlDialect } from '../../sql/statements.ts';

/** A filter kind: turns the raw `filter[name]` string into a value, then into a SQL condition. */
export interface FilterKind<T = unknown> {
  /** Returns the parsed value, or a message for a 422 on `filter[name]`. */
  parse(raw: string, filter: FilterDef): { value: T } | { error: string };
  /** The condition on `column` (quoted, qualified) in the database's SQL; none when the value asks for nothing. */
  condition(value: T, column: string, filter: FilterDef, dialect: SqlDialect): Condition | undefined;
}
