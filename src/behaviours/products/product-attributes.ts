// The attributes a product is configured with (products/product-attributes, reference-projects-
// extras §6): their options must be the attribute's own, and one is removed only when none of the
// product's variants is used elsewhere; the variants then go with it.
import { ActionRefusedError, type Hook } from '../../../engine/index.ts';
import { heldIds, holdIds, replaceValues } from './attribute-values.ts';

/** Tables whose rows make a product "in use": stock, orders, agreements and invoices. */
const USAGE_TABLES = [
  'inventories_moves',
  'inventories_product_quantities',
  'sales_order_lines',
  'purchases_order_lines',
  'purchases_requisition_lines',
  'accounts_account_move_lines',
];

export const IN_USE_MESSAGE =
  "This attribute cannot be removed because some of this product's variants are already used in other records. Remove those variants first, or drop only the unused values.";

/**
 * beforeCreate/beforeUpdate: the options sent (the definition checks they are the attribute's)
 * replace the values after the write. A new attribute without options clears the values, which
 * were the old attribute's.
 */
export const productAttributeOptions: Hook = ({ values, record }) => {
  const attributeChanged = record !== undefined && values.attribute_id !== undefined && Number(values.attribute_id) !== Number(record.attribute_id);
  const sent = (values.options ?? undefined) as number[] | undefined;
  holdIds(values, 'options', sent ?? (attributeChanged ? [] : undefined));
};

/** afterCreate/afterUpdate: the values become the options held by `productAttributeOptions`. */
export const writeProductAttributeValues: Hook = async ({ trx, values, record }) => {
  const options = heldIds(values);
  if (!options || !record) return;
  await replaceValues(trx, [{ id: Number(record.id), product_id: Number(record.product_id), attribute_id: Number(record.attribute_id), options }]);
};

/**
 * beforeDelete: 422 while a variant of the product is used by stock, orders or invoices;
 * otherwise the product's variants (archived ones too) are removed, in one statement.
 */
export const productAttributeNotInUse: Hook = async ({ trx, record, records }) => {
  if (!record) return;
  const variants = () => trx('products_products as variant').where('variant.parent_id', record.product_id);
  const used = await variants()
    .where((any) => {
      for (const table of USAGE_TABLES) any.orWhereExists(trx(table).select(trx.raw('1')).where(`${table}.product_id`, trx.ref('variant.id')));
    })
    .first('variant.id');
  if (used) throw new ActionRefusedError(IN_USE_MESSAGE);
  await records('products/product-variants').forceDeleteMany((query) => query.where('parent_id', record.product_id));
};
