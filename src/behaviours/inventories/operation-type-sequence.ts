// Each operation type numbers its operations from its own row of the `sequences` table
// (code `inventories.operation_type.<id>`), e.g. WH/IN/00001, made when it numbers its first
// operation. The prefix is `<warehouse code>/<sequence code>/`, or `<sequence code>/` for a type
// without a warehouse, as the type is when it numbers: a new sequence code or warehouse renames
// it, and the numbering goes on.
import { nextInSequence, type Hook } from '../../../engine/index.ts';

type Trx = Parameters<Hook>[0]['trx'];

export const operationTypeSequenceCode = (id: number | string) => `inventories.operation_type.${id}`;

/** The next name of an operation of this type for the company: WH/IN/00001. */
export async function nextOperationName(trx: Trx, operationType: Record<string, any>, companyId: number | null): Promise<string> {
  const warehouse = operationType.warehouse_id ? await trx('inventories_warehouses').where('id', operationType.warehouse_id).first('code') : undefined;
  return nextInSequence(trx, {
    code: operationTypeSequenceCode(operationType.id),
    companyId,
    prefix: warehouse?.code ? `${warehouse.code}/${operationType.sequence_code}/` : `${operationType.sequence_code}/`,
    padding: 5,
    renames: true,
  });
}
