// accounts/products `attribute_options`: the attribute options a product offers, kept as its
// product attributes and their values (attribute-values.ts), which /products/products/{product}/
// attributes shows and writes too.
import type { Hook } from '../../../engine/index.ts';
import { heldIds, holdIds, offerOptions } from './attribute-values.ts';

/** beforeCreate/beforeUpdate: the ids sent are written by `writeOfferedOptions`. */
export const holdOfferedOptions: Hook = ({ values }) => {
  holdIds(values, 'attribute_options', values.attribute_options ?? undefined);
};

/** afterCreate/afterUpdate: the product's attributes and values become the options sent. */
export const writeOfferedOptions: Hook = async ({ trx, values, record, records }) => {
  const ids = heldIds(values);
  if (ids && record) await offerOptions(trx, records, Number(record.id), ids);
};
