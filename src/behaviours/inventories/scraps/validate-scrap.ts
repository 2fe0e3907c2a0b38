// Validating a scrap (reference-projects-extras §4.4): its quantity, in the product's unit, leaves
// the source location's stock of its product, lot and package through a done stock move to the
// destination (the scrap location), all in the action's transaction and through the stock ledger
// with its row locks. Unlike the original, stock reserved for operations is not scrapped: what is
// on hand beyond the reservations must cover the scrap, or it is refused and nothing changes (a
// scrap that took reserved stock would leave operations holding stock that is gone).
import { ActionRefusedError, nowTimestamp, type Action } from '../../../../engine/index.ts';
import { lockQuants, qty, locationsById } from '../stock/ledger.ts';
import { sourceRef } from '../stock/reserve.ts';
import { completeMoves } from '../stock/validate.ts';
import { convertWith, unitsById } from '../units.ts';

export const validateScrap: Action = async ({ trx, def, record: scrap, records }) => {
  const product = await trx('products_products').where('id', scrap.product_id).first('uom_id');
  const units = await unitsById(trx, [scrap.uom_id, product.uom_id]);
  const quantity = qty(convertWith(units, Number(scrap.qty), scrap.uom_id, product.uom_id));

  const [quant] = [...(await lockQuants(trx, [sourceRef(scrap)])).values()];
  if (!quant || qty(Number(quant.quantity) - Number(quant.reserved_quantity)) < quantity) {
    throw new ActionRefusedError('Insufficient source quantity for this scrap.');
  }

  const source = (await locationsById(trx, [scrap.source_location_id])).get(Number(scrap.source_location_id))!;
  const now = nowTimestamp();
  const moveId = await records('inventories/moves').create(
    {
      name: scrap.name,
      state: 'draft',
      procure_method: 'make_to_stock',
      reference: scrap.name,
      origin: scrap.origin,
      product_id: scrap.product_id,
      uom_id: scrap.uom_id,
      product_uom_qty: qty(scrap.qty),
      product_qty: quantity,
      quantity: qty(scrap.qty),
      source_location_id: scrap.source_location_id,
      destination_location_id: scrap.destination_location_id,
      lot_id: scrap.lot_id,
      package_id: scrap.package_id,
      scrap_id: scrap.id,
      is_scraped: true,
      scheduled_at: now,
      warehouse_id: source.warehouse_id,
      company_id: scrap.company_id,
    },
    { system: true },
  );
  // The ledger's own validation: the stock leaves (and arrives, at an internal destination) and the move is done.
  await completeMoves(trx, [await trx('inventories_moves').where('id', moveId).first()]);
  await records(def.name).updateMany([scrap.id], { state: 'done', closed_at: now });
};
