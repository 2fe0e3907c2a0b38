// Before the moves of an operation are written (all of them at once): what each takes from its
// operation and product, and its quantity in the product's unit (converted, rounded half-up to
// that unit's rounding). The operation, the products and the units are read once for all moves.
import { nowTimestamp, ValidationError, type BatchHook } from '../../../engine/index.ts';
import { convertWith, unitsById } from './units.ts';

export const prepareMoves: BatchHook = async (contexts) => {
  if (contexts.length === 0) return;
  const { trx } = contexts[0]!;
  const operationIds = [...new Set(contexts.map(({ values, record }) => Number(values.operation_id ?? record?.operation_id)))];
  const operations = new Map((await trx('inventories_operations').whereIn('id', operationIds)).map((row) => [Number(row.id), row]));
  const productIds = contexts.map(({ values, record }) => values.product_id ?? record?.product_id);
  const products = new Map(
    (
      await trx('products_products')
        .whereIn('id', [...new Set(productIds.map(Number))])
        .select('id', 'name', 'type', 'uom_id')
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
  const lotIds = contexts.map(({ values, record }) => (values.lot_id !== undefined ? values.lot_id : record?.lot_id)).filter((id) => id != null);
  const lotProducts = new Map(
    lotIds.length === 0
      ? []
      : (
          await trx('inventories_lots')
            .whereIn('id', [...new Set(lotIds.map(Number))])
            .select('id', 'product_id')
        ).map((row) => [Number(row.id), Number(row.product_id)]),
  );
  const units = await unitsById(trx, [...contexts.map(({ values, record }) => values.uom_id ?? record?.uom_id), ...[...products.values()].map((product) => product.uom_id)]);

  for (const [position, { values, record, index }] of contexts.entries()) {
    const operation = operations.get(Number(values.operation_id ?? record?.operation_id))!;
    const product = products.get(Number(productIds[position]))!;
    // Services are not kept in stock: a stock move of one is a mistake in the request.
    if (values.product_id !== undefined && product.type === 'service') {
      throw new ValidationError({ product_id: [`The product '${product.name}' is a service and cannot be moved in stock.`] }, index);
    }
    // Reserved stock is held for this product, lot and package: changing either would leave it held on the wrong row.
    if (record && Number(record.reserved_quantity ?? 0) > 0) {
      for (const column of ['product_id', 'lot_id', 'package_id'] as const) {
        if (values[column] !== undefined && String(values[column] ?? '') !== String(record[column] ?? '')) {
          throw new ValidationError({ [column]: ['The move holds reserved stock: cancel its operation before changing its product, lot or package.'] }, index);
        }
      }
    }
    // A lot holds one product: the move's lot (sent, or kept while the product changes) must be one of it.
    const lotId = values.lot_id !== undefined ? values.lot_id : record?.lot_id;
    if (lotId != null && (values.lot_id !== undefined || values.product_id !== undefined) && lotProducts.get(Number(lotId)) !== Number(product.id)) {
      throw new ValidationError({ lot_id: [`The lot is not one of the product '${product.name}'.`] }, index);
    }
    if (!record) {
      // A move added to an operation already under way is confirmed with it (the original's "additional" moves).
      values.state = operation.state === 'draft' ? 'draft' : 'confirmed';
      values.procure_method = 'make_to_stock';
      values.quantity = null; // quantities done are recorded by the workflow, not on create
      values.is_picked = false;
    }
    if (values.product_id !== undefined || !record) {
      values.name = product.name;
      values.uom_id ??= product.uom_id;
    }
    const moveUomId = values.uom_id ?? record?.uom_id;
    const quantity = values.product_uom_qty ?? record?.product_uom_qty;
    if (values.product_uom_qty !== undefined || values.uom_id !== undefined || values.product_id !== undefined) {
      values.product_qty = convertWith(units, Number(quantity ?? 0), moveUomId, product.uom_id);
    }
    Object.assign(values, {
      reference: operation.name,
      operation_type_id: operation.operation_type_id,
      source_location_id: operation.source_location_id,
      destination_location_id: operation.destination_location_id,
      partner_id: operation.partner_id,
      company_id: operation.company_id,
      warehouse_id: destinations.get(Number(operation.destination_location_id))?.warehouse_id ?? null,
    });
    if (!record) values.scheduled_at ??= operation.scheduled_at ?? nowTimestamp();
  }
};
