// The statements of a list (engine/routes/run-list.ts): the count, as a computed column that can
// stop counting, and the page; and a collection's rows in its sort, unpaginated
// (engine/routes/handlers/collection-action.ts).
import { orderTerms, type SortKey } from './conditions.ts';
import { quote, type Condition } from './quote.ts';

/**
 * The select list of the count's one row: `total`, the rows of `table` that meet `where`, counted
 * up to `limit` when given (exact without), and `also` after it (another computed column).
 */
export function countColumns(table: string, where: Condition, limit: number | undefined, also?: Condition): Condition {
  const quoted = quote(table);
  const counting =
    limit === undefined
      ? { sql: `(SELECT COUNT(*) FROM ${quoted}${where.sql})`, params: where.params }
      : { sql: `(SELECT COUNT(*) FROM (SELECT 1 AS ${quote('counted')} FROM ${quoted}${where.sql} LIMIT ?) ${quote('rows_counted')})`, params: [...where.params, limit] };
  return also
    ? { sql: `${counting.sql} AS ${quote('total')}, ${also.sql}`, params: [...counting.params, ...also.params] }
    : { sql: `${counting.sql} AS ${quote('total')}`, params: counting.params };
}

/** A page of the rows of `table` that meet `where`, in `sort`, as `columns` reads them. */
export function pageOf(table: string, columns: Condition, where: Condition, sort: readonly SortKey[], perPage: number, offset: number): Condition {
  return {
    sql: `SELECT ${columns.sql} FROM ${quote(table)}${where.sql} ORDER BY ${orderTerms(table, sort)} LIMIT ? OFFSET ?`,
    params: [...columns.params, ...where.params, perPage, offset],
  };
}

/**
 * Every row of `table` in `sort`, as `columns` reads them: the statement is written once, and each
 * read gives its conditions (`where`: ./quote.ts, whereClause).
 */
export function sortedRows(table: string, columns: Condition, sort: readonly SortKey[]): (where: Condition) => Condition {
  const select = `SELECT ${columns.sql} FROM ${quote(table)}`;
  const order = ` ORDER BY ${orderTerms(table, sort)}`;
  return (where) => ({ sql: `${select}${where.sql}${order}`, params: [...columns.params, ...where.params] });
}
