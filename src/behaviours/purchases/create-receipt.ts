// The receipt a purchase order's confirmation makes (reference §5.3, done right): the incoming
// operation type of the company's warehouse (the original left the order's type unset through
// the API and failed half-way), from that type's source (the vendors' location) to the
// warehouse's stock, one move per line of a stocked product in the line's unit, confirmed and
// ready to validate. Everything in the action's transaction.
import { ActionRefusedError, type Records } from '../../../engine/index.ts';
import type { Trx } from '../inventories/stock/ledger.ts';
import { OPERATION_RESOURCES } from '../inventories/stock/operation-resources.ts';
import { createOrderOperation } from '../inventories/stock/order-operation.ts';

/** Product types kept in stock: their lines are received (as sales deliver them). */
const STOCKED = ['goods', 'consu'];

/** Creates and confirms the order's receipt; its id and operation type, or undefined when nothing is to be received. */
export async function createReceipt(trx: Trx, records: Records, order: Record<string, any>, userId: number): Promise<{ id: number; operationTypeId: number } | undefined> {
  const lines = (
    await trx('purchases_order_lines')
      .join('products_products', 'products_products.id', 'purchases_order_lines.product_id')
      .where('purchases_order_lines.order_id', order.id)
      .whereIn('products_products.type', STOCKED)
      .orderBy('purchases_order_lines.sort')
      .orderBy('purchases_order_lines.id')
      .select('purchases_order_lines.*', 'products_products.name as product_name', 'products_products.uom_id as product_uom')
  ).filter((line) => Number(line.product_qty) > 0);
  if (lines.length === 0) return undefined;
  const warehouse = await trx('inventories_warehouses').where('company_id', order.company_id).whereNull('deleted_at').orderBy('sort').orderBy('id').first();
  const types = trx('inventories_operation_types').where({ type: 'incoming', company_id: order.company_id }).whereNull('deleted_at').orderBy('sort').orderBy('id');
  const type = (warehouse && (await types.clone().where('warehouse_id', warehouse.id).first())) || (await types.first());
  if (!type) throw new ActionRefusedError('The purchase order cannot be confirmed: its company has no receipt operation type.');
  const destination = warehouse?.lot_stock_location_id ?? type.destination_location_id;
  const scheduledAt = order.planned_at ?? order.ordered_at;
  const id = await createOrderOperation(trx, records, {
    type,
    columns: {
      origin: order.name,
      scheduled_at: scheduledAt,
      partner_id: order.partner_id,
      source_location_id: type.source_location_id,
      destination_location_id: destination,
      user_id: order.user_id ?? userId,
      company_id: order.company_id,
      purchase_order_id: order.id,
    },
    moveColumns: { warehouse_id: warehouse?.id ?? null },
    lines: lines.map((line) => ({
      product_id: line.product_id,
      uom_id: line.uom_id,
      quantity: Number(line.product_qty),
      columns: { final_location_id: line.final_location_id ?? null, purchase_order_line_id: line.id, scheduled_at: line.planned_at ?? scheduledAt },
    })),
    resource: OPERATION_RESOURCES.incoming!,
  });
  return { id: Number(id), operationTypeId: Number(type.id) };
}
