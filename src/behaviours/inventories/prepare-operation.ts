// beforeCreate/beforeUpdate of a receipt, delivery, internal transfer or dropship: the name a new
// operation, or one given another operation type, takes from the type's sequence (WH/IN/00001). Its type, locations, company, shipping policy,
// state, responsible user and date default as resources/inventories/ says (the type of the
// resource's kind: the body validator refuses another).
import { ActionRefusedError, type Hook } from '../../../engine/index.ts';
import { releaseReservations } from './stock/reserve.ts';
import { nextOperationName } from './operation-type-sequence.ts';

export const prepareOperation: Hook = async ({ trx, values, record }) => {
  const typeChanged = !record || (values.operation_type_id !== undefined && Number(values.operation_type_id) !== Number(record.operation_type_id));
  if (!typeChanged) return;
  const operationType = await trx('inventories_operation_types').where('id', values.operation_type_id).first();
  values.name = await nextOperationName(trx, operationType, (values.company_id ?? null) as number | null);
};

/** beforeDelete: an open operation gives its reservations back; a purchase order's is canceled first (a done one is locked: resources/inventories/stock-operation.yaml). */
export const guardOperationDelete: Hook = async ({ trx, record }) => {
  // What the order's receipt status is worked out from: canceled first, it no longer counts.
  if (record!.purchase_order_id != null && record!.state !== 'cancel') {
    throw new ActionRefusedError('An operation of a purchase order cannot be deleted: cancel it (or the order) first.');
  }
  await releaseReservations(trx, await trx('inventories_moves').where('operation_id', record!.id));
};
