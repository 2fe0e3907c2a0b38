// The statements a piece of work sends to the database: knex's and the engine's prepared ones
// (both emit knex's 'query' event), for tests that hold a count independent of the rows.
import type { Knex } from 'knex';

export async function countStatements(knex: Knex, work: () => Promise<unknown>, sqls: string[] = []): Promise<number> {
  let count = 0;
  const listener = (query: { sql: string }) => {
    count++;
    sqls.push(query.sql);
  };
  knex.on('query', listener);
  try {
    await work();
  } finally {
    knex.off('query', listener);
  }
  return count;
}
