import type { Hook } from '../../../engine/index.ts';

/**
 * beforeCreate: a record created without `sort` goes last (highest sort + 1 in its table), as the
 * original's sortable models do. A `sort` sent by the client is kept.
 */
export const appendToSortOrder: Hook = async ({ trx, def, values }) => {
  if (values.sort !== undefined && values.sort !== null) return;
  const row = await trx(def.table).max({ highest: 'sort' }).first();
  values.sort = Number(row?.highest ?? 0) + 1;
};
