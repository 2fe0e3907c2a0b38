// The workflow actions of stock operations (receipts, deliveries, internal transfers, dropships):
// todo, check-availability, validate, cancel and return (reference §3.9). The state each needs is
// declared with the action in the resource's definition (`when`); these do the rest.
import { ActionRefusedError, ValidationError, nowTimestamp, recordsOf, type Action } from '../../../engine/index.ts';
import { recomputeOrdersOfOperation } from '../purchases/recompute-orders.ts';
import { recomputeDeliveredQuantities } from '../sales/delivered-quantities.ts';
import { confirmOperation } from './stock/confirm.ts';
import { qty, type Trx } from './stock/ledger.ts';
import { OPERATION_RESOURCES } from './stock/operation-resources.ts';
import { refreshOperationState } from './stock/operation-state.ts';
import { releaseReservations, reserveOperation } from './stock/reserve.ts';
import { validateOperation } from './stock/validate.ts';

export { OPERATION_RESOURCES };

export const todoOperation: Action = async ({ trx, record }) => {
  await confirmOperation(trx, record.id);
};

export const checkAvailability: Action = async ({ trx, record }) => {
  if ((await reserveOperation(trx, record.id)) === 0) throw new ActionRefusedError('No operation moves are eligible for availability check.');
  await refreshOperationState(trx, record.id);
};

export const validateStockOperation: Action = async ({ trx, record }) => {
  await validateOperation(trx, record.id);
  await recomputeDeliveredQuantities(trx, record.id);
  await recomputeOrdersOfOperation(trx, record);
};

export const cancelStockOperation: Action = async ({ trx, record }) => {
  await cancelOperation(trx, record.id);
  await recomputeOrdersOfOperation(trx, record);
};

/** Cancels what is not done of an operation: its reservations are released. */
export async function cancelOperation(trx: Trx, operationId: number): Promise<void> {
  const moves = await trx('inventories_moves').where('operation_id', operationId).whereNotIn('state', ['done', 'cancel']);
  await releaseReservations(trx, moves);
  const records = recordsOf(trx);
  await records('inventories/moves').updateMany(
    moves.map((move) => Number(move.id)),
    { state: 'cancel' },
  );
  const operation = await trx('inventories_operations')
    .join('inventories_operation_types', 'inventories_operation_types.id', 'inventories_operations.operation_type_id')
    .where('inventories_operations.id', operationId)
    .first('inventories_operation_types.type');
  await records(OPERATION_RESOURCES[operation.type]!).updateMany([operationId], { state: 'cancel' });
}

/** The body `return` declares (resources/inventories/stock-operation.yaml), validated by the engine: which moves, how much of each. */
interface ReturnInput {
  moves?: Array<{ id: number; quantity: number }> | null;
}

/**
 * A done operation's return: a new operation of the type its operation type returns with (else
 * the same type), from where the goods went back to where they came from, for the quantities
 * done, or those of the body (`{"moves": [{"id": <move id>, "quantity": 1}]}`); ready to validate.
 */
export const returnOperation: Action<ReturnInput> = async ({ trx, record, user, input, records }) => {
  const moves = (await trx('inventories_moves').where('operation_id', record.id).where('state', 'done').orderBy('id')).filter((move) => qty(move.quantity) > 0);
  const quantities = returnQuantities(input.moves, moves);
  const type = await trx('inventories_operation_types').where('id', record.operation_type_id).first();
  const returnType =
    (type.return_operation_type_id && (await trx('inventories_operation_types').where('id', type.return_operation_type_id).whereNull('deleted_at').first())) || type;
  const returned = moves.filter((move) => quantities.has(Number(move.id)));
  if (returned.length === 0) throw new ActionRefusedError('Nothing to return: no done quantity is left to send back.');
  const now = nowTimestamp();
  // Created as a POST of the return's resource would (its name from the type's sequence, its
  // moves' locations from it), as a system write: its links to what it returns are no client's.
  const resource = OPERATION_RESOURCES[returnType.type]!;
  const id = await records(resource).create(
    {
      origin: `Return of ${record.name}`,
      move_type: record.move_type,
      scheduled_at: now,
      partner_id: record.partner_id,
      operation_type_id: returnType.id,
      source_location_id: record.destination_location_id,
      destination_location_id: record.source_location_id,
      user_id: user.id,
      company_id: record.company_id,
      return_id: record.id,
      sale_order_id: record.sale_order_id,
      purchase_order_id: record.purchase_order_id,
      moves: returned.map((move) => ({
        name: move.name,
        product_id: move.product_id,
        // Goods go back as they came: of the same lot and in the same package.
        lot_id: move.lot_id,
        package_id: move.package_id,
        uom_id: move.uom_id,
        product_uom_qty: quantities.get(Number(move.id))!,
        warehouse_id: move.warehouse_id,
        origin_returned_move_id: move.id,
        sale_order_line_id: move.sale_order_line_id,
        purchase_order_line_id: move.purchase_order_line_id,
        scheduled_at: now,
      })),
    },
    { system: true },
  );
  await confirmOperation(trx, id);
  // A return under way makes the order's receipts partial again.
  await recomputeOrdersOfOperation(trx, record);
  return { id, resource };
};

/**
 * Move id → quantity to return (in the move's unit): all done quantities, or those the body names.
 * What only this operation's moves can tell is checked here: each is one of its done moves, and
 * no more than was done goes back.
 */
function returnQuantities(chosen: ReturnInput['moves'], moves: Array<Record<string, any>>): Map<number, number> {
  const done = new Map(moves.map((move) => [Number(move.id), qty(move.quantity)]));
  if (chosen === undefined || chosen === null) return done;
  const errors: Record<string, string[]> = {};
  const quantities = new Map<number, number>();
  chosen.forEach(({ id, quantity }, index) => {
    if (!done.has(id)) errors[`moves.${index}.id`] = [`The selected moves.${index}.id is not a done move of this operation.`];
    else if (qty(quantity) > done.get(id)!) errors[`moves.${index}.quantity`] = [`The moves.${index}.quantity field must not be greater than the ${done.get(id)} done.`];
    else quantities.set(id, qty(quantity));
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return quantities;
}
