// The token check a request's first read carries (./pending-authentication.ts): its query's parts,
// as the app writes them (src/auth), and the query on its own.
import type { Condition } from './quote.ts';

/** The check's columns carry this prefix so that they cannot meet a record's. */
export const AUTH_COLUMN_PREFIX = 'auth__';

/** The check as the parts of `SELECT columns FROM from WHERE where LIMIT 1`: one row for a valid token. */
export interface AuthenticationCheck {
  /** Every column prefixed with AUTH_COLUMN_PREFIX. */
  columns: string;
  from: Condition;
  where: Condition;
}

/** The check's query on its own. */
export function checkAlone({ columns, from, where }: AuthenticationCheck): [string, unknown[]] {
  return [`SELECT ${columns} FROM ${from.sql} WHERE ${where.sql} LIMIT 1`, [...from.params, ...where.params]];
}
