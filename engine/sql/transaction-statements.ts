// The engine's own SQL run through a transaction instead of the prepared statements' connections
// (./statements.ts), for what must see the transaction's uncommitted writes or be part of them.
import type { Knex } from 'knex';
import { insertedIdOf, rowsOf } from './dialect.ts';
import type { Row, TransactionStatements } from './statements.ts';

export function transactionStatements(trx: Knex.Transaction, insertReturns: boolean): TransactionStatements {
  const rows = async (sql: string, params: readonly unknown[]) => {
    const result = await trx.raw(sql, params.map((value) => (typeof value === 'boolean' ? Number(value) : value)) as Knex.RawBinding[]);
    return result;
  };
  return {
    async all(sql, params) {
      const result = await rows(sql, params);
      return rowsOf<Row>(trx, result);
    },
    async insert(sql, params) {
      const result = await rows(sql, params);
      return insertedIdOf(trx, result);
    },
    insertReturns,
    async insertReturning(sql, params) {
      const result = await rows(sql, params);
      return rowsOf<Row>(trx, result)[0]!;
    },
  };
}
