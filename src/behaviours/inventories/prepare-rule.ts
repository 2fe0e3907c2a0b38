import type { Hook } from '../../../engine/index.ts';

/**
 * beforeCreate/beforeUpdate of a stock rule: its warehouse is its operation type's, set again when
 * the operation type changes.
 */
export const prepareRule: Hook = async ({ trx, values }) => {
  if (values.operation_type_id !== undefined) {
    const operationType = await trx('inventories_operation_types').where('id', values.operation_type_id).first('warehouse_id');
    values.warehouse_id = operationType?.warehouse_id ?? null;
  }
};
