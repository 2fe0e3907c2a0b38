// beforeCreate/beforeUpdate of a receipt, internal transfer or dropship: the operation type
// (the resource's default when none is sent, and it must be of the resource's type), the
// locations and company it implies, the responsible user, the state and the name from the
// operation type's sequence (WH/IN/00001).
import { ActionRefusedError, nowTimestamp, ValidationError, type Hook } from '../../../engine/index.ts';
import { releaseReservations } from './stock/reserve.ts';
import { nextOperationName } from './operation-type-sequence.ts';

export const prepareOperation: Hook = async ({ trx, def, values, record, user }) => {
  const type = def.scope['operationType.type'] as string;
  const creating = record === undefined;
  if (record && (record.state === 'done' || record.state === 'cancel')) {
    throw new ActionRefusedError(`A ${record.state === 'done' ? 'done' : 'canceled'} operation cannot be changed.`);
  }
  if (creating || values.operation_type_id !== undefined) {
    const operationType = await resolveOperationType(trx, type, (values.operation_type_id ?? null) as number | null);
    values.operation_type_id = operationType.id;
    const changed = creating || Number(record!.operation_type_id) !== Number(operationType.id);
    if (changed) {
      // A new type brings its own locations (unless sent) and a new name from its sequence.
      values.source_location_id ??= operationType.source_location_id;
      values.destination_location_id ??= operationType.destination_location_id;
      const locationId = type === 'outgoing' ? values.source_location_id : values.destination_location_id;
      const location = await trx('inventories_locations').where('id', locationId).first('company_id');
      const company = location?.company_id ?? operationType.company_id ?? (await trx('companies').orderBy('id').first('id'))?.id ?? null;
      values.company_id = company;
      values.name = await nextOperationName(trx, operationType, company);
      values.move_type ??= operationType.move_type ?? 'direct';
    }
  }
  if (!creating) return;
  values.state = 'draft';
  values.user_id ??= user.id;
  values.scheduled_at ??= nowTimestamp();
};

async function resolveOperationType(trx: Parameters<Hook>[0]['trx'], type: string, id: number | null) {
  const live = () => trx('inventories_operation_types').whereNull('deleted_at');
  if (id !== null) {
    const chosen = await live().where('id', id).first();
    if (!chosen || chosen.type !== type) throw new ValidationError({ operation_type_id: ['The selected operation type does not match this resource.'] });
    return chosen;
  }
  const first = await live().where('type', type).orderBy('sort').orderBy('id').first();
  if (!first) throw new ValidationError({ operation_type_id: ['No operation type is configured for this resource.'] });
  return first;
}

/** beforeDelete: a done operation is history (its stock moved); an open one gives its reservations back; a purchase order's is canceled first. */
export const guardOperationDelete: Hook = async ({ trx, record }) => {
  if (record!.state === 'done') throw new ActionRefusedError('A done operation cannot be deleted: return it instead.');
  // What the order's receipt status is worked out from: canceled first, it no longer counts.
  if (record!.purchase_order_id != null && record!.state !== 'cancel') {
    throw new ActionRefusedError('An operation of a purchase order cannot be deleted: cancel it (or the order) first.');
  }
  await releaseReservations(trx, await trx('inventories_moves').where('operation_id', record!.id));
};
