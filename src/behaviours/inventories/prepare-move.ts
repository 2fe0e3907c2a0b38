// beforeCreate/beforeUpdate of a stock move: what it takes from its operation and product, and
// its quantity in the product's unit (converted, rounded half-up to that unit's rounding).
import { nowTimestamp, ValidationError, type Hook } from '../../../engine/index.ts';
import { convertQuantity } from './units.ts';

export const prepareMove: Hook = async ({ trx, values, record }) => {
  const operationId = (values.operation_id ?? record?.operation_id) as number;
  const operation = await trx('inventories_operations').where('id', operationId).first();
  const product = await trx('products_products').where('id', values.product_id ?? record?.product_id).first('id', 'name', 'type', 'uom_id');
  // Services are not kept in stock: a stock move of one is a mistake in the request.
  if (values.product_id !== undefined && product.type === 'service') {
    throw new ValidationError({ product_id: [`The product '${product.name}' is a service and cannot be moved in stock.`] });
  }
  if (!record) {
    values.state = operation.state;
    values.procure_method = 'make_to_stock';
    values.quantity = null; // quantities done are recorded by the workflow, not on create
    values.is_picked = false;
  }
  if (values.product_id !== undefined || !record) {
    values.name = product.name;
    values.uom_id ??= product.uom_id;
  }
  const moveUomId = (values.uom_id ?? record?.uom_id) as number | null;
  const quantity = values.product_uom_qty ?? record?.product_uom_qty;
  if (values.product_uom_qty !== undefined || values.uom_id !== undefined || values.product_id !== undefined) {
    values.product_qty = await convertQuantity(trx, Number(quantity ?? 0), moveUomId, product.uom_id);
  }
  const destination = await trx('inventories_locations').where('id', operation.destination_location_id).first('warehouse_id');
  Object.assign(values, {
    reference: operation.name,
    operation_type_id: operation.operation_type_id,
    source_location_id: operation.source_location_id,
    destination_location_id: operation.destination_location_id,
    partner_id: operation.partner_id,
    company_id: operation.company_id,
    warehouse_id: destination?.warehouse_id ?? null,
  });
  if (!record) values.scheduled_at ??= operation.scheduled_at ?? nowTimestamp();
};
