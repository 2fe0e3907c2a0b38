// The list pipeline: scope → filters → one count → one page query with batched includes.
import type { ResourceRuntime, RowScope } from '../routes/runtime.ts';
import { graphExpression, loadedRelations, scopedQuery } from '../routes/scope.ts';
import { filterKinds } from './filters/index.ts';
import type { Query } from './filters/types.ts';
import type { ListQuery } from './parse-list-query.ts';

export async function runList(runtime: ResourceRuntime, list: ListQuery, parentId: number | undefined, visible: RowScope | undefined) {
  const { def, model } = runtime;
  const query = scopedQuery(model, def, runtime.deps.registry, { parentId, trashed: list.trashed, rows: visible }) as unknown as Query;
  for (const { filter, value } of list.filters) filterKinds[filter.kind].apply(query, value, filter, def);

  const total = await query.clone().resultSize();
  const page = query.clone();
  for (const sort of list.sort) page.orderBy(`${def.table}.${sort.name}`, sort.descending ? 'desc' : 'asc');
  page.limit(list.perPage).offset((list.page - 1) * list.perPage);
  // withGraphFetched loads each relation for the whole page in one query (no N+1).
  const relations = loadedRelations(def, list.includes);
  if (relations.length > 0) page.withGraphFetched(graphExpression(relations)).allowGraph(runtime.allowGraph);
  const rows = await page;
  return { total, rows: rows as unknown as Array<Record<string, unknown>> };
}
