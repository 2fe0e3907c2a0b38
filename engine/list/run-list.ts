// The list pipeline: the resource's rows → filters → one count and one page query (prepared
// statements, SQL written once per shape) → includes in batches.
import type { ResourceRuntime, RowScope } from '../routes/runtime.ts';
import { includeTree, loadRelations } from '../sql/load-relations.ts';
import { quote, whereClause, type Condition } from '../sql/quote.ts';
import type { Row } from '../sql/statements.ts';
import { resourceRows } from '../sql/resource-rows.ts';
import { filterKinds } from './filters/index.ts';
import type { ListQuery } from './parse-list-query.ts';

/** The page and the total; undefined when the parent the path names does not exist (404). */
export async function runList(runtime: ResourceRuntime, list: ListQuery, parent: { id: number; condition: Condition } | undefined, visible: RowScope | undefined) {
  const { def, deps, statements } = runtime;
  const conditions = resourceRows(def, deps.registry, { parentId: parent?.id, trashed: list.trashed, rows: visible });
  for (const { filter, value } of list.filters) {
    const filtered = filterKinds[filter.kind].condition(value, quote(`${def.table}.${filter.fieldName}`), filter);
    if (filtered) conditions.push(filtered);
  }
  const where = whereClause(conditions);
  const table = quote(def.table);
  const order = list.sort.map((sort) => `${quote(`${def.table}.${sort.name}`)} ${sort.descending ? 'DESC' : 'ASC'}`).join(', ');

  // The count also tells whether the parent exists: one query for both.
  const parentFound = parent ? `, ${parent.condition.sql} AS ${quote('parent_found')}` : '';
  const [counted, rows] = await Promise.all([
    statements.all(`SELECT COUNT(*) AS ${quote('total')}${parentFound} FROM ${table}${where.sql}`, [...(parent?.condition.params ?? []), ...where.params]),
    statements.all(`SELECT ${runtime.columns(def)} FROM ${table}${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`, [...where.params, list.perPage, (list.page - 1) * list.perPage]),
  ]);
  if (parent && !Number(counted[0]!.parent_found)) return undefined;
  await loadRelations(statements, deps.registry, runtime.columns, def, rows, includeTree(runtime.loaded(list.includes)));
  return { total: Number(counted[0]!.total), rows: rows as Row[] };
}
