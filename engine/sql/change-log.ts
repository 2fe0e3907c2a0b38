// The change feed's SQL (engine/changes/): a change written with a prepared INSERT, the records a
// unit changed read back as the API shows them, positions given in one UPDATE, and the feed read
// for a user's scopes.
import type { Knex } from 'knex';
import { placeholders, quote, type Condition } from './quote.ts';
import type { Row, Statements } from './statements.ts';

export const CHANGE_LOG = 'change_log';

/** The columns of a change, in the order INSERT_CHANGE binds them. */
export const CHANGE_COLUMNS = ['resource', 'record_id', 'kind', 'record', 'changed', 'row_scope', 'user_id', 'request_id', 'created_at'] as const;

/** One change, with CHANGE_COLUMNS' values as its bindings. */
export const INSERT_CHANGE = `INSERT INTO ${quote(CHANGE_LOG)} (${CHANGE_COLUMNS.map(quote).join(', ')}) VALUES (${placeholders(CHANGE_COLUMNS.length)})`;

/** The rows of `table` with these ids, as `select` (a resource's columns: ./columns.ts) reads them. */
export function recordsWithIds(reads: Pick<Statements, 'all'>, table: string, select: Condition, ids: readonly number[]): Promise<Row[]> {
  return reads.all(`SELECT ${select.sql} FROM ${quote(table)} WHERE ${quote(`${table}.id`)} IN (${placeholders(ids.length)})`, [...select.params, ...ids]);
}

/** Gives the changes with these ids the positions `first`, `first + 1`... in this order, in one statement. */
export async function numberChanges(trx: Knex.Transaction, ids: readonly number[], first: number): Promise<void> {
  const cases = ids.map(() => 'WHEN ? THEN ?').join(' ');
  await trx.raw(`UPDATE \`${CHANGE_LOG}\` SET \`seq\` = CASE \`id\` ${cases} END WHERE \`id\` IN (${ids.map(() => '?').join(', ')})`, [
    ...ids.flatMap((id, index) => [id, first + index]),
    ...ids,
  ]);
}

/** The changes of one resource a user may read, when the user's access to it is limited. */
export interface ScopedFeed {
  resource: string;
  table: string;
  /** The list's company scope, on the value the record had when it changed (`row_scope`). */
  company?: { values: readonly number[]; orNull: boolean };
  /** Conditions on `table` the record must meet now (the record scope: who it names). */
  named: readonly Condition[];
}

/**
 * Up to `take` changes after position `after`, in feed order: those of the `scoped` resources
 * within their scopes, and every change of the `unscoped` ones (at least one of the two non-empty).
 */
export function changesAfter(statements: Pick<Statements, 'all'>, after: string, scoped: readonly ScopedFeed[], unscoped: readonly string[], take: number): Promise<Row[]> {
  const conditions: string[] = [];
  const params: unknown[] = [after];
  for (const { resource, table, company, named } of scoped) {
    const parts = [`${quote('resource')} = ?`];
    params.push(resource);
    if (company) {
      const { values, orNull } = company;
      parts.push(`(${quote('row_scope')} IN (${values.length > 0 ? placeholders(values.length) : 'NULL'})${orNull ? ` OR ${quote('row_scope')} IS NULL` : ''})`);
      params.push(...values);
    }
    for (const test of named) {
      parts.push(`${quote('record_id')} IN (SELECT ${quote(`${table}.id`)} FROM ${quote(table)} WHERE ${test.sql})`);
      params.push(...test.params);
    }
    conditions.push(`(${parts.join(' AND ')})`);
  }
  if (unscoped.length > 0) {
    conditions.push(`${quote('resource')} IN (${placeholders(unscoped.length)})`);
    params.push(...unscoped);
  }
  return statements.all(
    `SELECT ${['seq', 'resource', 'record_id', 'kind', 'record', 'changed', 'user_id', 'request_id', 'created_at'].map(quote).join(', ')} FROM ${quote(CHANGE_LOG)} WHERE ${quote('seq')} > ? AND (${conditions.join(' OR ')}) ORDER BY ${quote('seq')} LIMIT ?`,
    [...params, take],
  );
}
