// The workflow actions of purchase orders (reference §5.2) that need code: confirm and cancel, each
// in the action's one transaction (the original ran none in one). Draft, toggle-lock and
// confirm-receipt-date only `set` values, the lines' state following the order's
// (resources/purchases/purchase-orders.yaml). Confirming makes the receipt; cancelling cancels
// the receipts not done; both end with the order's recompute. The order is written through its
// writer: its lines' copy of its state follows in the change feed.
import { ActionRefusedError, nowTimestamp, type Action } from '../../../engine/index.ts';
import { cancelOperation } from '../inventories/operation-actions.ts';
import { openBillOf } from './billed-quantities.ts';
import { createReceipt } from './create-receipt.ts';
import { recomputePurchaseOrders } from './recompute-orders.ts';

// No approval step: the original's (an amount above which a manager approves) is off by default
// and has no setting here, so confirming always purchases.
export const confirmOrder: Action = async ({ trx, def, record, user, records }) => {
  const receipt = await createReceipt(trx, records, record, user.id);
  await records(def.name).updateMany([record.id], { state: 'purchase', approved_at: nowTimestamp(), ...(receipt && { operation_type_id: receipt.operationTypeId }) });
  await recomputePurchaseOrders(trx, [record.id]);
};

export const cancelOrder: Action = async ({ trx, def, record, records }) => {
  const operations = await trx('inventories_operations').where('purchase_order_id', record.id).orderBy('id').select('id', 'state');
  if (operations.some((operation) => operation.state === 'done')) throw new ActionRefusedError('The order cannot be canceled since they have receipts that are already done.');
  if (await openBillOf(trx, record.id)) throw new ActionRefusedError('The order cannot be canceled. You must first cancel their related vendor bills.');
  for (const operation of operations.filter((o) => o.state !== 'cancel')) await cancelOperation(trx, operation.id);
  await records(def.name).updateMany([record.id], { state: 'canceled', mail_reminder_confirmed: false });
  await recomputePurchaseOrders(trx, [record.id]);
};
