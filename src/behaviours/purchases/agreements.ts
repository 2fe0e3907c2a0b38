// Purchase agreements (reference §5.6): their names. Their dates, the states of the three actions,
// and the lines' defaults and checks are declared in resources/purchases/.
import type { Hook } from '../../../engine/index.ts';

/** afterCreate/afterUpdate: BO/<id> for a blanket order, PT/<id> for a purchase template (a new type renames it, as in the original). */
export const nameAgreement: Hook = async ({ trx, record }) => {
  const name = `${record!.type === 'blanket_order' ? 'BO' : 'PT'}/${record!.id}`;
  if (record!.name !== name) await trx('purchases_requisitions').where('id', record!.id).update({ name });
};
