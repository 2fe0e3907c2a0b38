// Reserving stock for an operation's moves: each move takes what its (internal) source location
// has free, up to its demand; a move from a vendor or another non-internal location is always
// available. Moves become assigned, partially_available or stay confirmed. A move reserves from
// the stock of its own lot and package (none: the stock kept without a lot or package).
import { recordsOf } from '../../../../engine/index.ts';
import { changeQuants, isInternal, locationsById, lockQuants, type QuantChange, type QuantRef, qty, rowKey, type Trx } from './ledger.ts';

/** Where a move takes its stock from, in the ledger. */
export const sourceRef = (move: Record<string, any>): QuantRef => ({
  productId: Number(move.product_id),
  locationId: Number(move.source_location_id),
  lotId: move.lot_id ?? null,
  packageId: move.package_id ?? null,
});

const WAITING = ['waiting', 'confirmed', 'partially_available'];

/** Reserves for the moves of the operation that still wait; returns how many moves were eligible. */
export async function reserveOperation(trx: Trx, operationId: number): Promise<number> {
  const moves = await trx('inventories_moves').where('operation_id', operationId).whereIn('state', WAITING).orderBy('id');
  if (moves.length === 0) return 0;
  const locations = await locationsById(
    trx,
    moves.map((move) => move.source_location_id),
  );
  const internal = moves.filter((move) => isInternal(locations.get(Number(move.source_location_id))));
  const quants = await lockQuants(trx, internal.map(sourceRef));
  const free = new Map([...quants].map(([key, quant]) => [key, qty(Number(quant.quantity) - Number(quant.reserved_quantity))]));

  const changes: QuantChange[] = [];
  const updates = moves.map((move) => {
    const location = locations.get(Number(move.source_location_id));
    const demand = qty(move.product_qty);
    let reserved = qty(move.reserved_quantity);
    if (isInternal(location)) {
      const key = rowKey(move, move.source_location_id);
      const take = Math.max(0, Math.min(free.get(key) ?? 0, qty(demand - reserved)));
      if (take > 0) {
        free.set(key, qty((free.get(key) ?? 0) - take));
        reserved = qty(reserved + take);
        changes.push({ ...sourceRef(move), location: location!, reserved: take });
      }
    } else {
      reserved = demand;
    }
    const state = reserved >= demand ? 'assigned' : reserved > 0 ? 'partially_available' : 'confirmed';
    // Stock of a non-internal source is not reserved in the ledger: the move is simply ready.
    return { id: Number(move.id), values: { state, reserved_quantity: isInternal(location) ? reserved : 0 } };
  });
  await changeQuants(trx, changes);
  await recordsOf(trx)('inventories/moves').updateEach(updates);
  return moves.length;
}

/** Gives back what the moves reserved (a cancel, or a validation that consumes it). */
export async function releaseReservations(trx: Trx, moves: Array<Record<string, any>>): Promise<void> {
  const reserving = moves.filter((move) => qty(move.reserved_quantity) > 0);
  if (reserving.length === 0) return;
  const locations = await locationsById(
    trx,
    reserving.map((move) => move.source_location_id),
  );
  await lockQuants(trx, reserving.map(sourceRef));
  await changeQuants(
    trx,
    reserving
      .filter((move) => isInternal(locations.get(Number(move.source_location_id))))
      .map((move) => ({ ...sourceRef(move), location: locations.get(Number(move.source_location_id))!, reserved: -qty(move.reserved_quantity) })),
  );
  await recordsOf(trx)('inventories/moves').updateMany(
    reserving.map((move) => Number(move.id)),
    { reserved_quantity: 0 },
  );
}
