// The statements of `related:` copies (engine/keys/values/related.ts) once their source rows changed:
// the copies that now differ, found (and locked) for the change feed, then rewritten in one UPDATE
// from the source rows.
import type { Knex } from 'knex';
import { forUpdateSuffix, nullSafeDiffers, rowsOf } from './dialect.ts';
import { quote, type Condition } from './quote.ts';

export interface CopiesOf {
  /** The source rows' table, and the ids of those whose copied columns were written. */
  source: string;
  ids: readonly number[];
  /** The copying table, and its column naming the source row. */
  table: string;
  via: string;
  /** Each copy (a column of the copying table) and the source's column it copies. */
  pairs: ReadonlyArray<{ field: string; column: string }>;
}

export interface StaleCopies {
  /** The ids of the copying rows (that also meet `conditions`: a resource's scope) whose copies differ from their source, locked on MySQL/MariaDB. */
  find(conditions: readonly Condition[]): Promise<number[]>;
  /** Sets the differing copies to their source's values (and `updated_at` to `updatedAt`, when given). */
  refresh(updatedAt?: string): Promise<void>;
}

/** The copies of these source rows' columns that differ from them (null-safe: a copy that is null while the source has a value differs too). */
export function staleCopies(trx: Knex.Transaction, { source: sourceTable, ids, table: copying, via, pairs }: CopiesOf): StaleCopies {
  const table = quote(copying);
  const key = quote(`${copying}.${via}`);
  const source = (column: string) => `(SELECT ${quote(`s.${column}`)} FROM ${quote(sourceTable)} ${quote('s')} WHERE ${quote('s.id')} = ${key})`;
  const differs = pairs.map(({ field, column }) => nullSafeDiffers(trx, quote(`${copying}.${field}`), source(column)));
  const where = `${key} IN (${ids.map(() => '?').join(', ')}) AND (${differs.join(' OR ')})`;
  return {
    async find(conditions) {
      const sql = `SELECT ${quote(`${copying}.id`)} FROM ${table} WHERE ${where}${conditions.map((condition) => ` AND ${condition.sql}`).join('')}${forUpdateSuffix(trx)}`;
      const found = await trx.raw(sql, [...ids, ...conditions.flatMap((condition) => condition.params)] as Knex.RawBinding[]);
      return rowsOf<{ id: number }>(trx, found).map((row) => Number(row.id));
    },
    async refresh(updatedAt) {
      const sets = [...pairs.map(({ field, column }) => `${quote(field)} = ${source(column)}`), ...(updatedAt !== undefined ? [`${quote('updated_at')} = ?`] : [])];
      await trx.raw(`UPDATE ${table} SET ${sets.join(', ')} WHERE ${where}`, [...(updatedAt !== undefined ? [updatedAt] : []), ...ids]);
    },
  };
}
