// What follows a document's state: the invoiced quantities of the sales order lines its lines came
// from (reference-o2c-p2p §4.3, §5.4).
import type { Knex } from 'knex';
import { recomputeInvoicedQuantities } from '../../sales/invoiced-quantities.ts';

export async function afterMoveStateChange(trx: Knex.Transaction, moveIds: number[]): Promise<void> {
  const orders = await trx('accounts_account_moves').whereIn('id', moveIds).whereNotNull('sale_order_id').distinct('sale_order_id');
  if (orders.length > 0)
    await recomputeInvoicedQuantities(
      trx,
      orders.map((row) => Number(row.sale_order_id)),
    );
}
