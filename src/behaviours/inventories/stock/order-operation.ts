// The stock operation an order's confirmation makes — a sales order's delivery, a purchase
// order's receipt — created through the engine as a POST of it would be, as a system write (its
// links to the order are no client's): named from its operation type's sequence, one move per
// order line in the line's unit (the product quantity in the product's), then confirmed. The
// moves are written together, in as many statements for 50 lines as for 5.
import type { Records } from '../../../../engine/index.ts';
import { confirmOperation } from './confirm.ts';
import type { Trx } from './ledger.ts';

export interface OrderOperation {
  /** The operation type (its id, move_type and sequence). */
  type: Record<string, any>;
  /** The operation's own fields: origin, partner, locations, company, the order it belongs to... */
  columns: Record<string, unknown>;
  /** What every move has besides what it takes from the operation: its warehouse, its date. */
  moveColumns: Record<string, unknown>;
  lines: OrderOperationLine[];
  /** The operation's resource (inventories/deliveries, inventories/receipts). */
  resource: string;
}

export interface OrderOperationLine {
  product_id: number;
  /** The line's unit; none: the product's. */
  uom_id: number | null;
  quantity: number;
  /** The move's own fields: the order line it comes from, its date. */
  columns: Record<string, unknown>;
}

/** Creates and confirms the operation with its moves; returns its id. */
export async function createOrderOperation(trx: Trx, records: Records, { type, columns, moveColumns, lines, resource }: OrderOperation): Promise<number> {
  const id = await records(resource).create(
    {
      operation_type_id: type.id,
      ...columns,
      moves: lines.map((line) => ({
        origin: columns.origin,
        product_id: line.product_id,
        ...(line.uom_id != null && { uom_id: line.uom_id }),
        product_uom_qty: line.quantity,
        ...moveColumns,
        ...line.columns,
      })),
    },
    { system: true },
  );
  await confirmOperation(trx, id);
  return id;
}
