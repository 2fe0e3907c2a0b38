// A product category in use is not deleted (its place in the tree is declared: resources/products/categories.yaml).
import { HttpError, type Hook } from '../../../engine/index.ts';

/**
 * beforeDelete: refuses (409) to delete a category that products still use, soft-deleted ones
 * included. Stands in for a `products` relation with `onDelete: restrict`, which needs the
 * products/products resource; without either, the database's RESTRICT key answers a 500 on SQLite.
 */
export const categoryNotInUse: Hook = async ({ trx, record }) => {
  if (!record) return;
  if (await trx('products_products').where('category_id', record.id).first('id')) {
    throw new HttpError(409, 'The Category cannot be deleted because it still has Product records (soft-deleted ones included). Remove them first.');
  }
};
