// The engine's own SQL run through a transaction instead of the prepared statements' connections
// (./statements.ts), for what must see the transaction's uncommitted writes or be part of them.
import type { Knex } from 'knex';
import type { Row, TransactionStatements } from './statements.ts';

export function transactionStatements(trx: Knex.Transaction, insertReturns: boolean): TransactionStatements {
  const mysql = trx.client.config.client !== 'better-sqlite3';
  const rows = async (sql: string, params: readonly unknown[]) => {
    const result = await trx.raw(sql, params.map((value) => (typeof value === 'boolean' ? Number(value) : value)) as Knex.RawBinding[]);
    return result;
  };
  return {
    async all(sql, params) {
      const result = await rows(sql, params);
      return (mysql ? result[0] : result) as Row[];
    },
    async insert(sql, params) {
      const result = await rows(sql, params);
      // mysql2: [ResultSetHeader, fields]; better-sqlite3 through knex: the run's info.
      return Number(mysql ? result[0].insertId : result.lastInsertRowid);
    },
    insertReturns,
    async insertReturning(sql, params) {
      const result = await rows(sql, params);
      return ((mysql ? result[0] : result) as Row[])[0]!;
    },
  };
}
