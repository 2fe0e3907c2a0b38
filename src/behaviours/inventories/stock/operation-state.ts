// An operation's state follows its moves (as in Odoo): draft while any move is draft; done or
// canceled when all are; else `assigned` when what can go has been reserved (any move with the
// "direct" shipping policy, every move with "one"), else `confirmed`.
import { recordsOf } from '../../../../engine/index.ts';
import type { Trx } from './ledger.ts';
import { OPERATION_RESOURCES } from './operation-resources.ts';

export function operationState(moveStates: string[], moveType: string): string {
  const live = moveStates.filter((state) => state !== 'cancel');
  if (moveStates.length > 0 && live.length === 0) return 'cancel';
  if (live.some((state) => state === 'draft')) return 'draft';
  if (live.length > 0 && live.every((state) => state === 'done')) return 'done';
  const open = live.filter((state) => state !== 'done');
  const ready = (state: string) => state === 'assigned' || state === 'partially_available';
  const assigned = moveType === 'one' ? open.every((state) => state === 'assigned') : open.some(ready);
  return assigned ? 'assigned' : 'confirmed';
}

export async function refreshOperationState(trx: Trx, operationId: number): Promise<string> {
  const operation = await trx('inventories_operations')
    .join('inventories_operation_types', 'inventories_operation_types.id', 'inventories_operations.operation_type_id')
    .where('inventories_operations.id', operationId)
    .first('inventories_operations.move_type', 'inventories_operations.state', 'inventories_operation_types.type');
  const moves = await trx('inventories_moves').where('operation_id', operationId).select('id', 'state');
  const states = moves.map((move) => move.state as string);
  const state = states.length === 0 ? operation.state : operationState(states, operation.move_type);
  // Every flow of an operation's workflow ends here (its moves were recorded where they changed).
  await recordsOf(trx)(OPERATION_RESOURCES[operation.type]!).updateMany([operationId], { state });
  return state;
}
