// Validating an operation: every open move is done with its quantity (its demand when none was
// set), stock leaves internal source locations and arrives at internal destinations, the
// reservations are consumed, and the operation is done. Asking more of a location than it has
// is refused and changes nothing. Stock leaves and arrives with the move's lot and package.
import { ActionRefusedError, nowTimestamp, recordsOf } from '../../../../engine/index.ts';
import { convertWith, unitsById } from '../units.ts';
import { changeQuants, isInternal, locationsById, lockQuants, MAX_QUANTITY, type QuantChange, qty, rowKey, type Location, type Trx } from './ledger.ts';
import { sourceRef } from './reserve.ts';
import { refreshOperationState } from './operation-state.ts';

/** Validates the moves of an operation (or the moves given: an inventory adjustment has no operation). */
export async function completeMoves(trx: Trx, moves: Array<Record<string, any>>): Promise<void> {
  const products = await trx('products_products')
    .whereIn('id', [...new Set(moves.map((move) => Number(move.product_id)))])
    .select('id', 'name', 'uom_id');
  const productById = new Map(products.map((product) => [Number(product.id), product]));
  // Done quantities in the product's unit: the quantity set on the move (in the move's unit), else its demand.
  const units = await unitsById(
    trx,
    moves.flatMap((move) => (move.quantity === null ? [] : [move.uom_id, productById.get(Number(move.product_id))!.uom_id])),
  );
  const done = new Map<number, number>();
  for (const move of moves) {
    const product = productById.get(Number(move.product_id))!;
    done.set(Number(move.id), move.quantity === null ? qty(move.product_qty) : qty(convertWith(units, Number(move.quantity), move.uom_id, product.uom_id)));
  }
  const locations = await locationsById(
    trx,
    moves.flatMap((move) => [move.source_location_id, move.destination_location_id]),
  );
  const leaving = moves.filter((move) => isInternal(locations.get(Number(move.source_location_id))));
  const quants = await lockQuants(trx, leaving.map(sourceRef));

  // What each (product, internal source) gives, against what it has beyond others' reservations.
  const needs = new Map<string, { productId: number; locationId: number; needed: number; ownReserved: number }>();
  for (const move of leaving) {
    const key = rowKey(move, move.source_location_id);
    const need = needs.get(key) ?? { productId: Number(move.product_id), locationId: Number(move.source_location_id), needed: 0, ownReserved: 0 };
    need.needed = qty(need.needed + done.get(Number(move.id))!);
    need.ownReserved = qty(need.ownReserved + qty(move.reserved_quantity));
    needs.set(key, need);
  }
  for (const [key, need] of needs) {
    const quant = quants.get(key);
    const available = qty(Number(quant?.quantity ?? 0) - Number(quant?.reserved_quantity ?? 0) + need.ownReserved);
    if (need.needed > available) {
      const product = productById.get(need.productId)!;
      const location = locations.get(need.locationId)!;
      throw new ActionRefusedError(`Not enough "${product.name}" at ${location.full_name}: ${formatQty(Math.max(available, 0))} available, ${formatQty(need.needed)} needed.`);
    }
  }

  // What arrives must still fit the ledger's columns (decimal(15,4)): refused, never stored otherwise.
  const arriving = new Map<string, { productId: number; lotId: number | null; packageId: number | null; location: Location; quantity: number }>();
  for (const move of moves) {
    const destination = locations.get(Number(move.destination_location_id));
    if (!isInternal(destination)) continue;
    const key = rowKey(move, move.destination_location_id);
    const entry = arriving.get(key) ?? { productId: Number(move.product_id), lotId: move.lot_id ?? null, packageId: move.package_id ?? null, location: destination!, quantity: 0 };
    entry.quantity = qty(entry.quantity + done.get(Number(move.id))!);
    arriving.set(key, entry);
  }
  if (arriving.size > 0) {
    const held = await lockQuants(
      trx,
      [...arriving.values()].map((entry) => ({ productId: entry.productId, locationId: entry.location.id, lotId: entry.lotId, packageId: entry.packageId })),
    );
    for (const [key, entry] of arriving) {
      if (Number(held.get(key)?.quantity ?? 0) + entry.quantity > MAX_QUANTITY) {
        throw new ActionRefusedError(`${entry.location.full_name} cannot hold more than ${MAX_QUANTITY} of "${productById.get(entry.productId)!.name}".`);
      }
    }
  }

  const changes: QuantChange[] = [];
  const updates = moves.map((move) => {
    const quantity = done.get(Number(move.id))!;
    const source = locations.get(Number(move.source_location_id));
    const destination = locations.get(Number(move.destination_location_id));
    const stock = { productId: Number(move.product_id), lotId: move.lot_id ?? null, packageId: move.package_id ?? null };
    if (isInternal(source)) changes.push({ ...stock, location: source!, quantity: -quantity, reserved: -qty(move.reserved_quantity) });
    if (isInternal(destination)) changes.push({ ...stock, location: destination!, quantity });
    const inMoveUnit = move.quantity === null ? qty(move.product_uom_qty) : qty(move.quantity);
    return { id: Number(move.id), values: { state: 'done', quantity: inMoveUnit, reserved_quantity: 0, is_picked: 1 } };
  });
  await changeQuants(trx, changes);
  await recordsOf(trx)('inventories/moves').updateEach(updates);
}

export async function validateOperation(trx: Trx, operationId: number): Promise<void> {
  const moves = await trx('inventories_moves').where('operation_id', operationId).whereNotIn('state', ['done', 'cancel']).orderBy('id');
  if (moves.length === 0) throw new ActionRefusedError('Cannot validate an operation without moves.');
  await completeMoves(trx, moves);
  await refreshOperationState(trx, operationId);
  // Raw: the operation's own close time, stamped by its own validation (recorded as the action's change).
  await trx('inventories_operations').where('id', operationId).update({ closed_at: nowTimestamp() });
}

function formatQty(value: number): string {
  return String(qty(value));
}
