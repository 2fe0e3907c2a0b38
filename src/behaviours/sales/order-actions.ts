// The workflow actions of sales orders (reference §3.14) that need code: confirm and cancel
// (set-as-quotation and toggle-lock only `set` values: resources/sales/orders.yaml). Confirming an order with goods creates its delivery; cancelling it cancels the
// deliveries not yet done. The state each needs is declared in resources/sales/orders.yaml.
import { ActionRefusedError, nowTimestamp, type Action, type Records } from '../../../engine/index.ts';
import { cancelOperation } from '../inventories/operation-actions.ts';
import { OPERATION_RESOURCES } from '../inventories/stock/operation-resources.ts';
import type { Trx } from '../inventories/stock/ledger.ts';
import { createOrderOperation } from '../inventories/stock/order-operation.ts';
import { recomputeInvoicedQuantities } from './invoiced-quantities.ts';

/** Product types kept in stock: their lines are delivered. */
const STOCKED = ['goods', 'consu'];

// The order's state is written through its writer, so that its lines' copy (`related`) follows,
// in the change feed; before the delivery and the invoicing recompute, which read it.
export const confirmOrder: Action = async ({ trx, def, record, user, records }) => {
  await records(def.name).updateMany([record.id], { state: 'sale', invoice_status: 'to_invoice' });
  await createDelivery(trx, records, { ...record, state: 'sale' }, user.id);
  await recomputeInvoicedQuantities(trx, [Number(record.id)]);
};

export const cancelOrder: Action = async ({ trx, def, record, records }) => {
  const deliveries = await trx('inventories_operations').where('sale_order_id', record.id).select('id', 'name', 'state');
  const done = deliveries.find((delivery) => delivery.state === 'done');
  if (done) throw new ActionRefusedError(`The order cannot be canceled: its delivery ${done.name} is done. Return the goods instead.`);
  for (const delivery of deliveries.filter((d) => d.state !== 'cancel')) await cancelOperation(trx, delivery.id);
  await records(def.name).updateMany([record.id], { state: 'cancel', invoice_status: 'no' });
  await recomputeInvoicedQuantities(trx, [Number(record.id)]);
};

/**
 * The delivery of a confirmed order: from its warehouse's stock to the customers' location, one
 * move per line of a stocked product, in the line's unit, named from the outgoing sequence.
 */
async function createDelivery(trx: Trx, records: Records, order: Record<string, any>, userId: number): Promise<void> {
  const lines = await trx('sales_order_lines')
    .join('products_products', 'products_products.id', 'sales_order_lines.product_id')
    .where('sales_order_lines.order_id', order.id)
    .whereIn('products_products.type', STOCKED)
    .orderBy('sales_order_lines.id')
    .select('sales_order_lines.*', 'products_products.name as product_name', 'products_products.uom_id as product_uom');
  if (lines.length === 0) return;
  const warehouse = order.warehouse_id ? await trx('inventories_warehouses').where('id', order.warehouse_id).first() : undefined;
  const types = trx('inventories_operation_types').where('type', 'outgoing').whereNull('deleted_at').orderBy('sort').orderBy('id');
  const type = (warehouse && (await types.clone().where('warehouse_id', warehouse.id).first())) || (await types.first());
  if (!type) throw new ActionRefusedError('The order cannot be confirmed: no delivery operation type is configured.');
  const source = warehouse?.lot_stock_location_id ?? type.source_location_id;
  const scheduledAt = order.commitment_date ?? nowTimestamp();
  const partner = order.partner_shipping_id ?? order.partner_id;
  await createOrderOperation(trx, records, {
    type,
    columns: {
      origin: order.name,
      scheduled_at: scheduledAt,
      partner_id: partner,
      source_location_id: source,
      destination_location_id: type.destination_location_id,
      user_id: order.user_id ?? userId,
      company_id: order.company_id,
      sale_order_id: order.id,
    },
    moveColumns: { warehouse_id: warehouse?.id ?? null, scheduled_at: scheduledAt },
    lines: lines.map((line) => ({
      product_id: line.product_id,
      uom_id: line.product_uom_id,
      quantity: Number(line.product_uom_qty),
      columns: { sale_order_line_id: line.id },
    })),
    resource: OPERATION_RESOURCES.outgoing!,
  });
}
