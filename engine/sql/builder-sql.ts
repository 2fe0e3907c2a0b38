// SQL text that goes into knex's (and Objection's) query builder, for what the builder cannot say:
// conditions the engine writes as text (./quote.ts, ./resource-rows.ts), a column's increment.
import type { Knex } from 'knex';
import type { Condition } from './quote.ts';

/** A query builder that takes conditions written as text: knex's, or Objection's. */
interface TakesRawConditions {
  whereRaw(sql: string, bindings: readonly Knex.RawBinding[]): unknown;
}

/** The query narrowed by each of these conditions (AND). */
export function whereConditions<Q extends TakesRawConditions>(query: Q, conditions: readonly Condition[]): Q {
  for (const condition of conditions) query.whereRaw(condition.sql, condition.params as Knex.RawBinding[]);
  return query;
}

/** `column + 1`, for an update's value: the row's own value, incremented by the statement that writes it. */
export function plusOne(knex: Knex | Knex.Transaction, column: string): Knex.Raw {
  return knex.raw('?? + 1', [column]);
}
