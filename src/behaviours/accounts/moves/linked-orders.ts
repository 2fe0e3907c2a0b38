// What follows a document's state: the invoiced (billed) quantities of the sales (purchase) order
// lines its lines came from (reference-o2c-p2p §4.3, §5.2).
import type { Knex } from 'knex';
import { recomputePurchaseOrders } from '../../purchases/recompute-orders.ts';
import { recomputeInvoicedQuantities } from '../../sales/invoiced-quantities.ts';

export async function afterMoveStateChange(trx: Knex.Transaction, moveIds: number[]): Promise<void> {
  const orders = await trx('accounts_account_moves').whereIn('id', moveIds).whereNotNull('sale_order_id').distinct('sale_order_id');
  if (orders.length > 0)
    await recomputeInvoicedQuantities(
      trx,
      orders.map((row) => Number(row.sale_order_id)),
    );
  const purchases = await trx('accounts_account_moves').whereIn('id', moveIds).whereNotNull('purchase_order_id').distinct('purchase_order_id');
  if (purchases.length > 0)
    await recomputePurchaseOrders(
      trx,
      purchases.map((row) => Number(row.purchase_order_id)),
    );
}
