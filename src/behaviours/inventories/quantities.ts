// Stock on hand per product and location (/inventories/quantities), and inventory adjustments:
// a counted quantity is set on a row, `apply` writes the difference as a done move from or to
// the company's inventory-adjustment location, `clear` drops the count.
import { ActionRefusedError, ValidationError, type Action, type Hook, type Subquery } from '../../../engine/index.ts';
import { locationsById, lockQuants, qty } from './stock/ledger.ts';
import { completeMoves } from './stock/validate.ts';

const IDENTITY = ['product_id', 'location_id', 'lot_id', 'package_id'] as const;

/**
 * beforeCreate/beforeUpdate: one row per product, location, lot and package, whose identity never
 * changes; the user who counted last. (The definition says the rest: an internal location, a lot
 * of the product, the location's warehouse and company, the counting user on create.)
 */
export const prepareQuantity: Hook = ({ values, record, user }) => {
  if (record) {
    const moved = IDENTITY.filter((key) => values[key] !== undefined && Number(values[key] ?? 0) !== Number(record[key] ?? 0));
    if (moved.length > 0)
      throw new ValidationError(Object.fromEntries(moved.map((key) => [key, [`The ${key.replace('_', ' ')} of a quantity cannot change; count another row instead.`]])));
    values.user_id = user.id;
    return;
  }
  // The keys of the row's unique index: a row without a lot or package has 0 there.
  Object.assign(values, { lot_key: values.lot_id ?? 0, package_key: values.package_id ?? 0 });
};

/** beforeDelete: only a row with nothing on hand or reserved can go (the ledger must add up). */
export const guardQuantityDelete: Hook = ({ record }) => {
  if (qty(record!.quantity) !== 0 || qty(record!.reserved_quantity) !== 0) {
    throw new ActionRefusedError('A quantity with stock on hand or reserved cannot be deleted; count it to 0 and apply first.');
  }
};

/** The counted quantity becomes the quantity on hand, through a done inventory move for the difference. */
export const applyCount: Action = async ({ trx, def, record, user, records }) => {
  if (record.counted_quantity === null) throw new ActionRefusedError('Set a counted quantity before applying it.');
  const [quant] = [
    ...(await lockQuants(trx, [{ productId: Number(record.product_id), locationId: Number(record.location_id), lotId: record.lot_id, packageId: record.package_id }])).values(),
  ];
  const counted = qty(record.counted_quantity);
  if (counted < qty(quant!.reserved_quantity)) {
    throw new ActionRefusedError(`${qty(quant!.reserved_quantity)} are reserved for operations here: cancel them before counting less.`);
  }
  const difference = qty(counted - qty(quant!.quantity));
  if (difference !== 0) {
    const location = (await locationsById(trx, [record.location_id])).get(Number(record.location_id))!;
    // The company's adjustment location (or a shared one); a location of no company takes the first.
    const adjustments = trx('inventories_locations').where({ type: 'inventory', is_scrap: false }).whereNull('deleted_at').orderBy('id').first('id');
    if (location.company_id != null) adjustments.where((query) => query.where('company_id', location.company_id).orWhereNull('company_id'));
    const adjustment = await adjustments;
    if (!adjustment) throw new ActionRefusedError('No inventory adjustment location is configured.');
    const product = await trx('products_products').where('id', record.product_id).first('name', 'uom_id');
    const [from, to] = difference > 0 ? [adjustment.id, location.id] : [location.id, adjustment.id];
    const moveId = await records('inventories/moves').create(
      {
        name: `Quantity updated: ${product.name}`,
        state: 'draft',
        procure_method: 'make_to_stock',
        reference: 'Inventory adjustment',
        product_id: record.product_id,
        lot_id: record.lot_id,
        package_id: record.package_id,
        uom_id: product.uom_id,
        product_uom_qty: Math.abs(difference),
        product_qty: Math.abs(difference),
        source_location_id: from,
        destination_location_id: to,
        is_inventory: true,
        warehouse_id: location.warehouse_id,
        company_id: location.company_id,
      },
      { system: true },
    );
    await completeMoves(trx, [await trx('inventories_moves').where('id', moveId).first()]);
  }
  await records(def.name).updateMany([record.id], { counted_quantity: null, user_id: user.id });
};

/** A product's free stock over all internal locations: on hand less reserved (on hand and reserved are declared sums: resources/inventories/products.yaml). */
export const freeQuantity: Subquery = (table) =>
  `SELECT COALESCE(SUM(q.\`quantity\` - q.\`reserved_quantity\`), 0) FROM \`inventories_product_quantities\` q INNER JOIN \`inventories_locations\` l ON l.\`id\` = q.\`location_id\` AND l.\`type\` = 'internal' WHERE q.\`product_id\` = ${table}.\`id\``;
