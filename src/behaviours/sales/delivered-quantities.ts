// A sales order line's delivered quantity follows its validated delivery moves: what went out,
// less what came back by returns (in the move's unit, which is the line's). One statement for
// all the lines an operation touches.
import type { Knex } from 'knex';
import { changedRows } from '../support/changed-rows.ts';
import { recomputeInvoicedQuantities } from './invoiced-quantities.ts';

export async function recomputeDeliveredQuantities(trx: Knex.Transaction, operationId: number): Promise<void> {
  await trx.raw(
    `UPDATE \`sales_order_lines\` SET \`qty_delivered\` = (
       SELECT COALESCE(SUM(CASE WHEN m.\`origin_returned_move_id\` IS NULL THEN m.\`quantity\` ELSE -m.\`quantity\` END), 0)
       FROM \`inventories_moves\` m WHERE m.\`sale_order_line_id\` = \`sales_order_lines\`.\`id\` AND m.\`state\` = 'done')
     WHERE \`id\` IN (SELECT \`sale_order_line_id\` FROM \`inventories_moves\` WHERE \`operation_id\` = ? AND \`sale_order_line_id\` IS NOT NULL)`,
    [operationId],
  );
  // What is left to invoice follows what was delivered.
  const orders = await trx('sales_order_lines').whereIn('id', trx('inventories_moves').select('sale_order_line_id').where('operation_id', operationId)).distinct('order_id');
  if (orders.length > 0)
    await recomputeInvoicedQuantities(
      trx,
      orders.map((row) => Number(row.order_id)),
    );
  else
    await changedRows(trx, 'sales/order-lines', trx('sales_order_lines').whereIn('id', trx('inventories_moves').select('sale_order_line_id').where('operation_id', operationId)));
}
