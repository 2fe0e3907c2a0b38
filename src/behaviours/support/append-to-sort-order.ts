import type { Hook } from '../../../engine/index.ts';

/** The highest value a `sort` column (a signed INT) stores. */
export const MAX_SORT = 2147483647;

/**
 * beforeCreate: a record created without `sort` goes last (highest sort + 1 in its table), as the
 * original's sortable models do. A `sort` sent by the client is kept. After a record at the
 * highest storable sort, new ones share that sort (ties are ordered by id) rather than fail.
 */
export const appendToSortOrder: Hook = async ({ trx, def, values }) => {
  if (values.sort !== undefined && values.sort !== null) return;
  const row = await trx(def.table).max({ highest: 'sort' }).first();
  values.sort = Math.min(Number(row?.highest ?? 0) + 1, MAX_SORT);
};
