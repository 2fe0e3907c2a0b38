// The stock operation an order's confirmation makes — a sales order's delivery, a purchase
// order's receipt: named from its operation type's sequence, one move per order line in the
// line's unit (the product quantity in the product's), then confirmed. Every move is written in
// one statement, however many lines.
import { nowTimestamp } from '../../../../engine/index.ts';
import { changedIds, changedRows } from '../../support/changed-rows.ts';
import { nextOperationName } from '../operation-type-sequence.ts';
import { convertWith, unitsById } from '../units.ts';
import { confirmOperation } from './confirm.ts';
import type { Trx } from './ledger.ts';

export interface OrderOperation {
  /** The operation type (its id, move_type and sequence). */
  type: Record<string, any>;
  /** The operation's own columns: origin, partner, locations, company, the order it belongs to... */
  columns: Record<string, unknown>;
  /** What every move shares besides the operation's: locations, partner, warehouse, company. */
  moveColumns: Record<string, unknown>;
  lines: OrderOperationLine[];
  /** The operation's resource, for the change feed (inventories/deliveries, inventories/receipts). */
  resource: string;
  userId: number;
}

export interface OrderOperationLine {
  name: string;
  product_id: number;
  /** The line's unit, and the product's. */
  uom_id: number | null;
  product_uom: number | null;
  quantity: number;
  /** The move's own columns: the order line it comes from, its date. */
  columns: Record<string, unknown>;
}

/** Creates and confirms the operation with its moves; returns its id. */
export async function createOrderOperation(trx: Trx, { type, columns, moveColumns, lines, resource, userId }: OrderOperation): Promise<number> {
  const now = nowTimestamp();
  const name = await nextOperationName(trx, type, (columns.company_id as number | null) ?? null);
  const [id] = await trx('inventories_operations').insert({
    name,
    move_type: type.move_type ?? 'direct',
    state: 'draft',
    operation_type_id: type.id,
    ...columns,
    creator_id: userId,
    created_at: now,
    updated_at: now,
  });
  // The units of every line, read at once: a move's product quantity is in the product's unit.
  const units = await unitsById(
    trx,
    lines.flatMap((line) => [line.uom_id, line.product_uom]),
  );
  await trx('inventories_moves').insert(
    lines.map((line) => {
      const uom = line.uom_id ?? line.product_uom;
      return {
        name: line.name,
        state: 'draft',
        procure_method: 'make_to_stock',
        origin: columns.origin,
        reference: name,
        product_id: line.product_id,
        uom_id: uom,
        product_uom_qty: line.quantity,
        product_qty: convertWith(units, line.quantity, uom, line.product_uom),
        operation_id: id,
        operation_type_id: type.id,
        ...moveColumns,
        ...line.columns,
        creator_id: userId,
        created_at: now,
        updated_at: now,
      };
    }),
  );
  changedIds(trx, resource, [id], 'created');
  await changedRows(trx, 'inventories/moves', trx('inventories_moves').where('operation_id', id), 'created');
  await confirmOperation(trx, Number(id));
  return Number(id);
}
