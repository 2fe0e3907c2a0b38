// The statements of `tree:` (engine/keys/tree.ts) when a record moves or is renamed: its
// descendants, found by the prefix of their stored path and locked, then rewritten in one UPDATE.
import type { Knex } from 'knex';
import { concat, forUpdateSuffix, rowsOf } from './dialect.ts';
import { placeholders, quote, type Condition } from './quote.ts';

/** A record's descendants: the rows of `table` whose `pathField` starts with `prefix`, the record itself aside. */
export interface Subtree {
  table: string;
  pathField: string;
  prefix: string;
  /** The prefix's length in characters (SUBSTR counts characters). */
  prefixLength: number;
  /** The record whose descendants these are. */
  id: unknown;
  /** The stored full name, when the tree keeps one: read as `full`. */
  fullField?: string;
}

function under({ pathField, prefix, prefixLength, id }: Subtree): Condition {
  return { sql: `SUBSTR(${quote(pathField)}, 1, ?) = ? AND ${quote('id')} <> ?`, params: [prefixLength, prefix, id] };
}

/** The descendants' ids (and full names), locked until the transaction ends on MySQL/MariaDB; trashed ones included. */
export async function lockedDescendants(trx: Knex.Transaction, subtree: Subtree): Promise<Array<{ id: number; full?: string | null }>> {
  const { fullField } = subtree;
  const where = under(subtree);
  const found = await trx.raw(
    `SELECT ${quote('id')}${fullField ? `, ${quote(fullField)} AS ${quote('full')}` : ''} FROM ${quote(subtree.table)} WHERE ${where.sql}${forUpdateSuffix(trx)}`,
    where.params as Knex.RawBinding[],
  );
  return rowsOf(trx, found);
}

/**
 * One UPDATE: every descendant's path starts with `newPrefix` instead of the subtree's prefix, and,
 * with `fullName`, each full name that starts with `from` (`fromLength` characters) starts with `to`
 * instead (the others keep theirs).
 */
export async function rewriteDescendants(trx: Knex.Transaction, subtree: Subtree, newPrefix: string, fullName?: { from: string; fromLength: number; to: string }): Promise<void> {
  const path = quote(subtree.pathField);
  const sets = [`${path} = ${concat(trx, '?', `SUBSTR(${path}, ?)`)}`];
  const params: unknown[] = [newPrefix, subtree.prefixLength + 1];
  if (fullName) {
    const full = quote(subtree.fullField!);
    sets.push(`${full} = CASE WHEN SUBSTR(${full}, 1, ?) = ? THEN ${concat(trx, '?', `SUBSTR(${full}, ?)`)} ELSE ${full} END`);
    params.push(fullName.fromLength, fullName.from, fullName.to, fullName.fromLength + 1);
  }
  const where = under(subtree);
  await trx.raw(`UPDATE ${quote(subtree.table)} SET ${sets.join(', ')} WHERE ${where.sql}`, [...params, ...where.params] as Knex.RawBinding[]);
}

/** Which of these ids name a row of `table` that meets the conditions (a resource's scope), read in the transaction. */
export async function idsMeeting(trx: Knex.Transaction, table: string, ids: readonly number[], conditions: readonly Condition[]): Promise<number[]> {
  const sql = `SELECT ${quote(`${table}.id`)} FROM ${quote(table)} WHERE ${quote(`${table}.id`)} IN (${placeholders(ids.length)})${conditions.map((c) => ` AND ${c.sql}`).join('')}`;
  const found = await trx.raw(sql, [...ids, ...conditions.flatMap((c) => c.params)] as Knex.RawBinding[]);
  return rowsOf<{ id: number }>(trx, found).map((row) => Number(row.id));
}
