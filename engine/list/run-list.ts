// The list pipeline: the resource's rows → filters → one count and one page query (prepared
// statements, SQL written once per shape) → includes in batches.
import type { ResourceRuntime, RowScope } from '../routes/runtime.ts';
import { includeTree, loadRelations } from '../sql/load-relations.ts';
import { quote, whereClause } from '../sql/quote.ts';
import type { Row } from '../sql/statements.ts';
import { resourceRows } from '../sql/resource-rows.ts';
import { filterKinds } from './filters/index.ts';
import type { ListQuery } from './parse-list-query.ts';

export async function runList(runtime: ResourceRuntime, list: ListQuery, parentId: number | undefined, visible: RowScope | undefined) {
  const { def, deps, statements } = runtime;
  const conditions = resourceRows(def, deps.registry, { parentId, trashed: list.trashed, rows: visible });
  for (const { filter, value } of list.filters) {
    const filtered = filterKinds[filter.kind].condition(value, quote(`${def.table}.${filter.fieldName}`), filter);
    if (filtered) conditions.push(filtered);
  }
  const where = whereClause(conditions);
  const table = quote(def.table);
  const order = list.sort.map((sort) => `${quote(`${def.table}.${sort.name}`)} ${sort.descending ? 'DESC' : 'ASC'}`).join(', ');

  const [counted, rows] = await Promise.all([
    statements.all(`SELECT COUNT(*) AS ${quote('total')} FROM ${table}${where.sql}`, where.params),
    statements.all(`SELECT ${table}.* FROM ${table}${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`, [...where.params, list.perPage, (list.page - 1) * list.perPage]),
  ]);
  await loadRelations(statements, deps.registry, def, rows, includeTree(runtime.loaded(list.includes)));
  return { total: Number(counted[0]!.total), rows: rows as Row[] };
}
