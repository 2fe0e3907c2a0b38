// A record read inside a write's transaction with its row locked until the transaction ends
// (engine/routes/lookup.ts, lockRecord): what the transaction then writes is decided on this
// version of it.
import type { Knex } from 'knex';
import { forUpdateSuffix, rowsOf } from './dialect.ts';
import { quote, type Condition } from './quote.ts';
import type { Row } from './statements.ts';

/** The row of `table` with this id as `columns` (./columns.ts) reads it, locked on MySQL/MariaDB (SQLite has one writer at a time); undefined when it is gone. */
export async function lockedRow(trx: Knex.Transaction, table: string, columns: Condition, id: number): Promise<Row | undefined> {
  const read = async (sql: string, params: readonly unknown[] = []) => {
    const result = await trx.raw(sql, [...(params as Knex.RawBinding[]), id]);
    return rowsOf<Row>(trx, result)[0];
  };
  const byId = ` FROM ${quote(table)} WHERE ${quote(`${table}.id`)} = ?`;
  // The row alone is locked: a locking read would also lock what the subquery fields read (a
  // product's stock rows). The transaction's first plain read then sees what was committed before
  // the lock was granted.
  const lock = forUpdateSuffix(trx);
  if (lock && !(await read(`SELECT ${quote('id')}${byId}${lock}`))) return undefined;
  return read(`SELECT ${columns.sql}${byId}`, columns.params);
}
