// Before the moves of an operation are written (all of them at once): what each takes from its
// operation (its locations, the destination's warehouse, its state), and its quantity in
// the product's unit (converted, rounded half-up to that unit's rounding). Its name, unit, date, the
// operation's reference, type, partner and company, and the checks of its product and lot, are
// declared in resources/inventories/moves.yaml. The operation, the products and the units are read
// once for all moves. A move of no operation is written by the system as it is given.
import { ValidationError, type BatchHook } from '../../../engine/index.ts';
import { convertWith, unitsById } from './units.ts';

export const prepareMoves: BatchHook = async (contexts) => {
  if (contexts.length === 0) return;
  const { trx } = contexts[0]!;
  const operationIds = [...new Set(contexts.map(({ values, record }) => values.operation_id ?? record?.operation_id).filter((id) => id != null))].map(Number);
  const operations = new Map((await trx('inventories_operations').whereIn('id', operationIds)).map((row) => [Number(row.id), row]));
  const productIds = contexts.map(({ values, record }) => values.product_id ?? record?.product_id);
  const products = new Map(
    (
      await trx('products_products')
        .whereIn('id', [...new Set(productIds.map(Number))])
        .select('id', 'uom_id')
    ).map((row) => [Number(row.id), row]),
  );
  const destinations = new Map(
    (
      await trx('inventories_locations')
        .whereIn(
          'id',
          [...operations.values()].map((operation) => operation.destination_location_id),
        )
        .select('id', 'warehouse_id')
    ).map((row) => [Number(row.id), row]),
  );
  const units = await unitsById(trx, [...contexts.map(({ values, record }) => values.uom_id ?? record?.uom_id), ...[...products.values()].map((product) => product.uom_id)]);

  for (const [position, { values, record, index }] of contexts.entries()) {
    const operation = operations.get(Number(values.operation_id ?? record?.operation_id));
    // A move of no operation (an inventory adjustment, a scrap's) is the system's: written as given.
    if (!operation) continue;
    const product = products.get(Number(productIds[position]))!;
    // Reserved stock is held for this product, lot and package: changing either would leave it held on the wrong row.
    if (record && Number(record.reserved_quantity ?? 0) > 0) {
      for (const column of ['product_id', 'lot_id', 'package_id'] as const) {
        if (values[column] !== undefined && String(values[column] ?? '') !== String(record[column] ?? '')) {
          throw new ValidationError({ [column]: ['The move holds reserved stock: cancel its operation before changing its product, lot or package.'] }, index);
        }
      }
    }
    if (!record) {
      // A move added to an operation already under way is confirmed with it (the original's "additional" moves).
      values.state = operation.state === 'draft' ? 'draft' : 'confirmed';
      values.quantity = null; // quantities done are recorded by the workflow, not on create
      values.is_picked = false;
    }
    const moveUomId = values.uom_id ?? record?.uom_id;
    const quantity = values.product_uom_qty ?? record?.product_uom_qty;
    if (values.product_uom_qty !== undefined || values.uom_id !== undefined || values.product_id !== undefined) {
      values.product_qty = convertWith(units, Number(quantity ?? 0), moveUomId, product.uom_id);
    }
    // The operation's locations: not kept in sync, since a move's reservation is held at its source.
    Object.assign(values, {
      source_location_id: operation.source_location_id,
      destination_location_id: operation.destination_location_id,
      // A system write's warehouse stays (an order's delivery: the order's warehouse).
      warehouse_id: values.warehouse_id !== undefined ? values.warehouse_id : (destinations.get(Number(operation.destination_location_id))?.warehouse_id ?? null),
    });
  }
};
