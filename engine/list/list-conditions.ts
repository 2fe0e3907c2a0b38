// The rows a list (and an export) reads: the resource's rows (scope, parent, company and record
// scope, trashed) narrowed by the query's filters and search, as SQL conditions.
import type { Registry } from '../definition/registry.ts';
import type { ResourceDef } from '../definition/types.ts';
import { quote, type Condition } from '../sql/quote.ts';
import { resourceRows, type RowScope } from '../sql/resource-rows.ts';
import { filterKinds } from './filters/index.ts';
import { searchCondition } from '../sql/search-index.ts';
import type { ListQuery } from './parse-list-query.ts';

export interface ListRows {
  parentId?: number;
  /** The policy's row scope for the user; none: every row (the command line). */
  rows?: RowScope;
  /** Columns whose LIKE already ignores case (engine/schema/column-bounds.ts). */
  likeIgnoresCase?: ReadonlySet<string>;
  /** The zone whose days a date filter on a datetime means (listTimeZone()); none: UTC. */
  timeZone?: string;
}

export function listConditions(
  def: ResourceDef,
  registry: Registry,
  list: Pick<ListQuery, 'filters' | 'trashed' | 'search'>,
  { parentId, rows, likeIgnoresCase, timeZone = 'UTC' }: ListRows,
): Condition[] {
  const conditions = resourceRows(def, registry, { parentId, trashed: list.trashed, rows });
  for (const { filter, value } of list.filters) {
    const context = { likeIgnoresCase: likeIgnoresCase?.has(filter.fieldName!) ?? false, timeZone };
    const filtered = filterKinds[filter.kind].condition(value, quote(`${def.table}.${filter.fieldName}`), filter, context);
    if (filtered) conditions.push(filtered);
  }
  if (list.search.length > 0) conditions.push(searchCondition(def.table, list.search));
  return conditions;
}

/**
 * The zone whose days the list's date filters on datetimes mean: its `tz`, else the company's,
 * read (`companyZone`) only when such a filter is there; UTC when none is.
 */
export async function listTimeZone(list: Pick<ListQuery, 'filters' | 'timeZone'>, companyZone: () => Promise<string>): Promise<string> {
  if (list.timeZone) return list.timeZone;
  return list.filters.some(({ filter }) => filter.kind === 'date' && filter.field!.type === 'datetime') ? companyZone() : 'UTC';
}
