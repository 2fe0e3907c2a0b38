// What a scrap's definition does not say (reference-projects-extras §4.4): the unit is of the
// product's unit category, a product tracked by lot or serial number
// names its lot. Its number (SP/00001), defaults
// (unit, locations, company) and the checks of its references (not a service, the lot of the
// product, both locations of one company) are declared in resources/inventories/scraps.yaml.
import { ValidationError, type FieldErrors, type Hook } from '../../../../engine/index.ts';
import { unitsById } from '../units.ts';

export const prepareScrap: Hook = async ({ trx, values, record }) => {
  const pick = (field: string) => (values[field] !== undefined ? values[field] : record?.[field]);
  const product = await trx('products_products').where('id', pick('product_id')).first('name', 'tracking', 'uom_id');
  const errors: FieldErrors = {};
  const units = await unitsById(trx, [pick('uom_id'), product.uom_id]);
  if (units.get(Number(pick('uom_id')))?.category_id !== units.get(Number(product.uom_id))?.category_id) {
    errors.uom_id = ["The unit must be of the product's unit category."];
  }
  if (pick('lot_id') == null && (product.tracking === 'lot' || product.tracking === 'serial')) {
    errors.lot_id = [`The product '${product.name}' is tracked by ${product.tracking === 'lot' ? 'lot' : 'serial number'}: name the lot to scrap.`];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
};
