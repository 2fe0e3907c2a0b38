// The list pipeline: the resource's rows → filters → one count and one page query (prepared
// statements, SQL written once per shape) → includes in batches.
//
// The count is bounded: it stops `countAhead` rows past the requested page, so a list of a
// million rows costs what one of ten thousand does. Below the bound (every list the contract
// shows) the total is exact; at the bound it is a lower bound, `meta.total_exact` is false, and
// the pages it names all exist. Paging on moves the bound along.
import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '../behaviours/types.ts';
import { parentExists, type PathParent } from './lookup.ts';
import { oneRow, takePendingAuthentication, withCheck } from '../sql/pending-authentication.ts';
import type { ResourceRuntime } from './runtime.ts';
import { includeTree, loadRelations } from '../sql/load-relations.ts';
import { named } from '../sql/conditions.ts';
import { countColumns, pageOf } from '../sql/list-query.ts';
import { whereClause, type Condition } from '../sql/quote.ts';
import { OPENS_REQUEST, type Row } from '../sql/statements.ts';
import { listConditions as listRowConditions, listTimeZone } from '../list/list-conditions.ts';
import type { ListQuery } from '../list/parse-list-query.ts';

/**
 * The page and the total for the request's user; undefined when the parent the path names does
 * not exist (404). A pending authentication check goes with the count, which is one row; the page
 * is read beside it for the user as last checked, and both again if their access has changed.
 */
export async function runList(runtime: ResourceRuntime, request: FastifyRequest, list: ListQuery): Promise<{ total: number; exact: boolean; rows: Row[] } | undefined> {
  const { def, deps, statements } = runtime;
  const pending = takePendingAuthentication(request);
  const user = pending?.guess ?? request.authUser!;
  const timeZone = await listTimeZone(list, () => userCompanyZone(runtime, user));
  const { count, page } = listQueries(runtime, request, list, user, timeZone);
  // With the check pending, these are the request's first statements.
  const opening = pending ? OPENS_REQUEST : undefined;
  const [counted, rows] = await Promise.all([
    statements.all(...(pending ? withCheck(pending, count.read) : oneRow(count.read)), opening),
    statements.all(page.sql, page.params, opening),
  ]);
  if (pending && !(await pending.settle(request, counted[0]))) return runList(runtime, request, list);
  const total = Number(counted[0]!.total);
  if (count.parent && !(await parentFound(runtime, count.parent, counted[0]!, total))) return undefined;
  await loadRelations(statements, deps.registry, runtime.columns, def, rows, includeTree(runtime.loaded(list.includes)));
  return { total, exact: count.limit === undefined || total < count.limit, rows };
}

/**
 * Whether the parent the path names exists for the user: the count's column, or, when the
 * parent's only condition is its id, any row counted (its foreign key names the parent), and a
 * statement of its own for an empty list only.
 */
async function parentFound(runtime: ResourceRuntime, parent: PathParent, counted: Row, total: number): Promise<boolean> {
  if (!parent.impliedByRecord) return Boolean(Number(counted.parent_found));
  if (total > 0) return true;
  const [row] = await runtime.statements.all(...oneRow({ columns: parentFoundColumn(parent) }));
  return Boolean(Number(row!.parent_found));
}

/** `parent_found`: whether the parent exists for the user, as a column of a computed row. */
function parentFoundColumn(parent: PathParent): Condition {
  return named(parent.exists(), 'parent_found');
}

/**
 * The rows the list shows this user: the resource's (scope, parent, company and record scope,
 * trashed), filtered; a date filter on a datetime takes the days of `timeZone`.
 */
export function listConditions(
  runtime: ResourceRuntime,
  list: Pick<ListQuery, 'filters' | 'trashed' | 'search'>,
  parentId: number | undefined,
  user: AuthUser,
  timeZone: string,
): Condition[] {
  const { def, deps } = runtime;
  return listRowConditions(def, deps.registry, list, {
    parentId,
    rows: deps.policy.rowScope(user, def),
    likeIgnoresCase: runtime.likeIgnoresCase,
    timeZone,
  });
}

/** The zone of the user's default company (UTC without a company or a reader of zones). */
export async function userCompanyZone(runtime: ResourceRuntime, user: AuthUser): Promise<string> {
  const { deps } = runtime;
  return (await deps.companyTimeZone?.(deps.knex, deps.policy.defaultCompany(user))) ?? 'UTC';
}

/** The count (which also tells whether the parent exists) and the page, for this user's rows. */
function listQueries(runtime: ResourceRuntime, request: FastifyRequest, list: ListQuery, user: AuthUser, timeZone: string) {
  const { def, deps } = runtime;
  const parent = parentExists(runtime, request, user);
  const where = whereClause(listConditions(runtime, list, parent?.id, user, timeZone));
  const offset = (list.page - 1) * list.perPage;
  const limit = deps.countAhead ? offset + list.perPage + deps.countAhead : undefined;
  // One row computed by its select list: the total, and whether the parent exists (unless the rows counted tell).
  const found = parent && !parent.impliedByRecord ? parentFoundColumn(parent) : undefined;
  const columns = countColumns(def.table, where, limit, found);
  return {
    count: { read: { columns }, parent, limit },
    page: pageOf(def.table, runtime.columns(def), where, list.sort, list.perPage, offset),
  };
}
