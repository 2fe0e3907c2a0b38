// A product category's place in the tree, kept in two read-only columns:
// - full_name: the names from the root down, joined with " / " ("All / Saleable / Office Furniture");
// - parent_path: the ids of its ancestors from the root, "/" for a root ("/1/6/" under All / Saleable).
import { HttpError, ValidationError, type Hook } from '../../../engine/index.ts';
import { changedIds } from '../support/changed-rows.ts';

type Trx = Parameters<Hook>[0]['trx'];
const TABLE = 'products_categories';
/** The full_name column's width. */
const FULL_NAME_MAX = 1024;

/**
 * beforeCreate/beforeUpdate: computes full_name and parent_path from the name and parent (sent or
 * stored). A category cannot be moved under itself or one of its own subcategories (422).
 */
export const categoryPath: Hook = async ({ trx, values, record }) => {
  const nameSent = values.name !== undefined;
  const parentSent = values.parent_id !== undefined;
  if (record && !nameSent && !parentSent) return;
  const name = (nameSent ? values.name : record?.name) as string;
  const parentId = (parentSent ? values.parent_id : record?.parent_id) as number | null | undefined;
  const parent = parentId ? await trx(TABLE).where('id', parentId).first('id', 'full_name', 'parent_path') : undefined;
  if (record && parent && (await isWithin(trx, Number(parent.id), Number(record.id)))) {
    throw new ValidationError({ parent_id: ['The parent id cannot be the category itself or one of its subcategories.'] });
  }
  values.parent_path = parent ? `${parent.parent_path ?? '/'}${parent.id}/` : '/';
  values.full_name = checkedFullName(parent ? `${parent.full_name ?? ''} / ${name}` : name);
};

/** afterUpdate: a renamed or moved category passes its new full_name and parent_path down the tree. */
export const categoryDescendants: Hook = async ({ trx, values, record }) => {
  if (!record || (values.name === undefined && values.parent_id === undefined)) return;
  await refreshChildren(trx, record);
};

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

async function refreshChildren(trx: Trx, parent: Record<string, any>): Promise<void> {
  const children = await trx(TABLE).where('parent_id', parent.id).select('id', 'name');
  for (const child of children) {
    const changes = { full_name: checkedFullName(`${parent.full_name} / ${child.name}`), parent_path: `${parent.parent_path}${parent.id}/` };
    await trx(TABLE).where('id', child.id).update(changes);
    changedIds(trx, 'products/categories', [child.id]);
    await refreshChildren(trx, { ...child, ...changes });
  }
}

/** A full name that fits its column, or a 422 naming the field that made it too long. */
function checkedFullName(fullName: string): string {
  if (fullName.length <= FULL_NAME_MAX) return fullName;
  throw new ValidationError({ name: [`The full name (the names from the root down) must not be greater than ${FULL_NAME_MAX} characters.`] });
}

/** Whether the category `id` is `ancestorId` or lies below it (walks up the parent links). */
async function isWithin(trx: Trx, id: number, ancestorId: number): Promise<boolean> {
  const seen = new Set<number>();
  for (let current: number | null = id; current !== null && !seen.has(current); ) {
    if (current === ancestorId) return true;
    seen.add(current);
    const row: { parent_id: number | null } | undefined = await trx(TABLE).where('id', current).first('parent_id');
    current = row?.parent_id == null ? null : Number(row.parent_id);
  }
  return false;
}
