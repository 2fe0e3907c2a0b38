// The values a product's attributes offer (products_product_attribute_values), the one record of
// "which attribute options a product's variants are made from". Two ways write them: a product
// attribute's `options` (products/product-attributes) and a product's `attribute_options`
// (accounts/products); sync-variants reads them. Both are `ids` fields whose rows carry more
// than the pair the engine writes (the product and the attribute too), so their hooks take the
// ids out of the engine's hands before the write (`holdIds`) and write them after it, when the
// record's id is known.
import type { Knex } from 'knex';
import type { Records } from '../../../engine/index.ts';

const ROWS_PER_INSERT = 200;

/** Ids taken from a write's values, by the values object the before and after hooks share. */
const held = new WeakMap<object, number[]>();

/** Takes the ids sent in `field` (undefined: not sent) for `heldIds`; the engine then leaves them alone. */
export function holdIds(values: Record<string, any>, field: string, ids: number[] | undefined): void {
  if (ids === undefined) return;
  held.set(values, [...new Set(ids.map(Number))]);
  values[field] = null;
}

export function heldIds(values: Record<string, any>): number[] | undefined {
  return held.get(values);
}

export interface ProductAttributeRow {
  id: number;
  product_id: number;
  attribute_id: number;
}

/** The values of these product attributes become `options` (per product attribute): one delete, multi-row inserts. */
export async function replaceValues(trx: Knex.Transaction, rows: Array<ProductAttributeRow & { options: number[] }>): Promise<void> {
  if (rows.length === 0) return;
  await trx('products_product_attribute_values')
    .whereIn(
      'product_attribute_id',
      rows.map((row) => row.id),
    )
    .delete();
  const values = rows.flatMap((row) =>
    row.options.map((option) => ({ product_id: row.product_id, attribute_id: row.attribute_id, product_attribute_id: row.id, attribute_option_id: option })),
  );
  for (let start = 0; start < values.length; start += ROWS_PER_INSERT) {
    // Raw: the rows of the owner's own link (more than the pair an `ids` field writes, see above).
    await trx('products_product_attribute_values').insert(values.slice(start, start + ROWS_PER_INSERT));
  }
}

/**
 * A product offers exactly these options: one product attribute per attribute they belong to (new
 * ones go last, in the attributes' order), each with those of its options; the product's other
 * attributes, and second ones of the same attribute, are removed (their values go with them).
 * Statements do not grow with the options.
 */
export async function offerOptions(trx: Knex.Transaction, records: Records, productId: number, optionIds: number[]): Promise<void> {
  const options: Array<{ id: number; attribute_id: number }> =
    optionIds.length === 0
      ? []
      : await trx('products_attribute_options as opt')
          .join('products_attributes as attr', 'attr.id', 'opt.attribute_id')
          .whereIn('opt.id', optionIds)
          .orderBy([{ column: 'attr.sort' }, { column: 'attr.id' }, { column: 'opt.sort' }, { column: 'opt.id' }])
          .select('opt.id', 'opt.attribute_id');
  const attributeIds = [...new Set(options.map((option) => Number(option.attribute_id)))];

  // The product's attributes: the first of each attribute sent is kept, the others go.
  const current: Array<{ id: number; attribute_id: number }> = await trx('products_product_attributes')
    .where('product_id', productId)
    .orderBy([{ column: 'sort' }, { column: 'id' }])
    .select('id', 'attribute_id');
  const kept = new Map<number, number>();
  for (const row of current) if (attributeIds.includes(Number(row.attribute_id)) && !kept.has(Number(row.attribute_id))) kept.set(Number(row.attribute_id), Number(row.id));
  const stale = current.map((row) => Number(row.id)).filter((id) => ![...kept.values()].includes(id));
  // Without the product attribute's delete rule, which takes the product's variants with it: here
  // the offer is replaced and the variants stay (a later sync archives those no longer offered).
  if (stale.length > 0) await records('products/product-attributes').forceDeleteMany((query) => query.whereIn('id', stale), { system: true });

  const missing = attributeIds.filter((id) => !kept.has(id));
  // New ones are created as a POST of them would be (last in order, signed, in the change feed).
  await records('products/product-attributes').createMany(
    missing.map((attributeId) => ({ product_id: productId, attribute_id: attributeId })),
    { system: true },
  );
  const offered = await optionsOf(trx, [...kept.values()]);
  const rows: ProductAttributeRow[] = await trx('products_product_attributes').where('product_id', productId).select('id', 'product_id', 'attribute_id');
  const replaced = rows.map((row) => ({
    id: Number(row.id),
    product_id: productId,
    attribute_id: Number(row.attribute_id),
    options: options.filter((option) => Number(option.attribute_id) === Number(row.attribute_id)).map((option) => Number(option.id)),
  }));
  await replaceValues(trx, replaced);
  // A kept attribute whose options change is an update of its `options` (the values are its ids field).
  const changed = replaced.filter((row) => offered.has(row.id) && offered.get(row.id) !== sameSet(row.options)).map((row) => row.id);
  records('products/product-attributes').changed(changed, 'updated', ['options']);
}

const sameSet = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b).join(',');

/** The options each of these product attributes offers now, as sameSet writes them. */
async function optionsOf(trx: Knex.Transaction, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await trx('products_product_attribute_values').whereIn('product_attribute_id', ids).select('product_attribute_id', 'attribute_option_id');
  return new Map(ids.map((id) => [id, sameSet(rows.filter((row) => Number(row.product_attribute_id) === id).map((row) => Number(row.attribute_option_id)))]));
}
