// The statements a piece of work sends to the database: knex's and the engine's prepared ones
// (both emit knex's 'query' event), for tests that hold a count independent of the rows.
import type { Knex } from 'knex';

export async function countStatements(knex: Knex, work: () => Promise<unknown>, sqls: string[] = []): Promise<number> {
  const sent = await statementsOf(knex, work);
  sqls.push(...sent.map((statement) => statement.sql));
  return sent.length;
}

export interface SentStatement {
  sql: string;
  bindings: unknown[];
}

/** The statements `work` sends, in order, with their bindings. */
export async function statementsOf(knex: Knex, work: () => Promise<unknown>): Promise<SentStatement[]> {
  const sent: SentStatement[] = [];
  const listener = (query: { sql: string; bindings?: readonly unknown[] }) => sent.push({ sql: query.sql, bindings: [...(query.bindings ?? [])] });
  knex.on('query', listener);
  try {
    await work();
  } finally {
    knex.off('query', listener);
  }
  return sent;
}
