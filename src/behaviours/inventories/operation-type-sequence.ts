// Each operation type numbers its operations from its own row of the `sequences` table
// (code `inventories.operation_type.<id>`), e.g. WH/IN/00001. The row holds the prefix,
// `<warehouse code>/<sequence code>/`, or `<sequence code>/` for a type without a warehouse.
import { nextInSequence, nowTimestamp, type Hook } from '../../../engine/index.ts';

type Trx = Parameters<Hook>[0]['trx'];

export const operationTypeSequenceCode = (id: number | string) => `inventories.operation_type.${id}`;

export async function operationTypeSequencePrefix(trx: Trx, operationType: Record<string, any>): Promise<string> {
  const warehouse = operationType.warehouse_id ? await trx('inventories_warehouses').where('id', operationType.warehouse_id).first('code') : undefined;
  return warehouse?.code ? `${warehouse.code}/${operationType.sequence_code}/` : `${operationType.sequence_code}/`;
}

/** The next name of an operation of this type for the company: WH/IN/00001. */
export async function nextOperationName(trx: Trx, operationType: Record<string, any>, companyId: number | null): Promise<string> {
  return nextInSequence(trx, {
    code: operationTypeSequenceCode(operationType.id),
    companyId,
    prefix: await operationTypeSequencePrefix(trx, operationType),
    padding: 5,
  });
}

/** afterCreate: the new type's sequence, for its company, starting at 1 with 5 digits. */
export const createOperationTypeSequence: Hook = async ({ trx, record }) => {
  if (!record) return;
  const now = nowTimestamp();
  // Sequences are no resource: the engine's numbering state (engine/rules/sequence.ts).
  await trx('sequences')
    .insert({
      code: operationTypeSequenceCode(record.id),
      company_id: record.company_id,
      prefix: await operationTypeSequencePrefix(trx, record),
      padding: 5,
      next_number: 1,
      created_at: now,
      updated_at: now,
    })
    .onConflict(['code', 'company_id'])
    .ignore();
};

/** afterUpdate: a new sequence code or warehouse renames the prefix; the numbering goes on. */
export const renameOperationTypeSequence: Hook = async ({ trx, values, record }) => {
  if (!record || (values.sequence_code === undefined && values.warehouse_id === undefined)) return;
  const prefix = await operationTypeSequencePrefix(trx, record);
  await trx('sequences').where('code', operationTypeSequenceCode(record.id)).update({ prefix, updated_at: nowTimestamp() });
};
