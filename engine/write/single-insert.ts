// The create handler's fast path: a create whose plan has nothing to do (writePlan's
// singleStatement) is one prepared INSERT, returning the new row where the server can; a searched
// record's word pairs follow it (engine/sql/search-index.ts).
import type { AuthUser } from '../behaviours/types.ts';
import type { ResourceDef } from '../definition/types.ts';
import { SEARCH_COLUMN } from '../definition/search-words.ts';
import { insertStatement } from '../sql/quote.ts';
import { wordsInsert } from '../sql/search-index.ts';
import type { Row, Statements } from '../sql/statements.ts';
import type { Values } from '../validation/body-validator.ts';
import { completeNewRecord, storedColumns } from './pipeline.ts';
import type { WritePlan } from './plan.ts';
import { perDefinition } from '../definition/per-definition.ts';

/** Returns the new id, and the new row where the server returns it with the insert (a resource with subquery fields is read back instead). */
export async function insertSingle(
  statements: Pick<Statements, 'insert' | 'insertReturning' | 'insertReturns'>,
  user: AuthUser,
  def: ResourceDef,
  values: Values,
  plan: Pick<WritePlan, 'complete'>,
  fixed: Values = {},
): Promise<{ id: number; row?: Row }> {
  completeNewRecord({ user }, def, values, fixed);
  plan.complete(values);
  const { sql, params } = insertStatement(def.table, storedColumns(def, values));
  let written: { id: number; row?: Row };
  if (statements.insertReturns && !hasSubqueryFields(def)) {
    const inserted = await statements.insertReturning(`${sql} RETURNING *`, params);
    written = { id: Number(inserted.id), row: inserted };
  } else written = { id: await statements.insert(sql, params) };
  const words = def.searchColumns.length > 0 ? wordsInsert(def.table, written.id, (values[SEARCH_COLUMN] as string | null) ?? null) : undefined;
  if (words) await statements.insert(words.sql, words.params);
  return written;
}

/** Worked out once per resource, not per request. */
const hasSubqueryFields = perDefinition((def) => [...def.fields.values()].some((field) => field.subquery || field.aggregate));
