// Marking an operation "to do": its draft moves are confirmed, and when its operation type
// reserves at confirmation (the default), stock is reserved right away.
import { ActionRefusedError, recordsOf } from '../../../../engine/index.ts';
import type { Trx } from './ledger.ts';
import { refreshOperationState } from './operation-state.ts';
import { reserveOperation } from './reserve.ts';

export async function confirmOperation(trx: Trx, operationId: number): Promise<void> {
  const moves = await trx('inventories_moves').where('operation_id', operationId).select('id', 'state');
  if (moves.length === 0) throw new ActionRefusedError('Cannot set operation to todo without moves.');
  await recordsOf(trx)('inventories/moves').updateMany((draft) => draft.where('operation_id', operationId).where('state', 'draft'), { state: 'confirmed' });
  const type = await trx('inventories_operations')
    .join('inventories_operation_types', 'inventories_operation_types.id', 'inventories_operations.operation_type_id')
    .where('inventories_operations.id', operationId)
    .first('inventories_operation_types.reservation_method');
  // Moves from a vendor or another non-internal location are ready at once, whatever the method.
  if (type?.reservation_method === 'at_confirm') await reserveOperation(trx, operationId);
  else await reserveNonInternal(trx, operationId);
  await refreshOperationState(trx, operationId);
}

async function reserveNonInternal(trx: Trx, operationId: number): Promise<void> {
  await recordsOf(trx)('inventories/moves').updateMany(
    (ready) =>
      ready.where('operation_id', operationId).where('state', 'confirmed').whereIn('source_location_id', trx('inventories_locations').select('id').whereNot('type', 'internal')),
    { state: 'assigned' },
  );
}
