// A sales order line's delivered quantity follows its validated delivery moves: what went out,
// less what came back by returns (in the move's unit, which is the line's). One statement for
// all the lines an operation touches.
import type { Knex } from 'knex';
import { recordsOf } from '../../../engine/index.ts';
import { recomputeInvoicedQuantities } from './invoiced-quantities.ts';

export async function recomputeDeliveredQuantities(trx: Knex.Transaction, operationId: number): Promise<void> {
  const delivered = trx.raw(
    `(SELECT COALESCE(SUM(CASE WHEN m.\`origin_returned_move_id\` IS NULL THEN m.\`quantity\` ELSE -m.\`quantity\` END), 0)
      FROM \`inventories_moves\` m WHERE m.\`sale_order_line_id\` = \`sales_order_lines\`.\`id\` AND m.\`state\` = 'done')`,
  );
  const lineIds = await recordsOf(trx)('sales/order-lines').updateMany(
    (lines) => lines.whereIn('id', trx('inventories_moves').select('sale_order_line_id').where('operation_id', operationId).whereNotNull('sale_order_line_id')),
    { qty_delivered: delivered },
  );
  if (lineIds.length === 0) return;
  // What is left to invoice follows what was delivered.
  const orders = await trx('sales_order_lines').whereIn('id', lineIds).distinct('order_id');
  await recomputeInvoicedQuantities(
    trx,
    orders.map((row) => Number(row.order_id)),
  );
}
