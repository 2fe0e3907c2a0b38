// Purchase agreements (reference §5.6): their dates and names. The states of the three actions,
// and the lines' defaults and checks, are declared in resources/purchases/.
import { ValidationError, type Hook } from '../../../engine/index.ts';

/**
 * beforeCreate/beforeUpdate: a start for a blanket order, an end sent on or after the start sent
 * with it. A start in the past is accepted: agreements are often recorded after they were signed
 * (the original's "today or later", on every update too, is not copied).
 */
export const prepareAgreement: Hook = ({ values, record }) => {
  const current = (name: string) => (values[name] !== undefined ? values[name] : record?.[name]);
  const day = (value: unknown) => (value ? String(value).slice(0, 10) : null);
  const errors: Record<string, string[]> = {};
  const startsAt = day(current('starts_at'));
  // As the original's rule: the two dates of one request (a date sent alone is not compared with the stored one).
  const endsAt = values.starts_at !== undefined ? day(values.ends_at) : null;
  if (current('type') === 'blanket_order' && !startsAt) errors.starts_at = ['The starts at field is required when agreement type is blanket order.'];
  if (startsAt && endsAt && endsAt < startsAt) errors.ends_at = ['The ends at field must be a date after or equal to starts at.'];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
};

/** afterCreate/afterUpdate: BO/<id> for a blanket order, PT/<id> for a purchase template (a new type renames it, as in the original). */
export const nameAgreement: Hook = async ({ trx, record }) => {
  const name = `${record!.type === 'blanket_order' ? 'BO' : 'PT'}/${record!.id}`;
  if (record!.name !== name) await trx('purchases_requisitions').where('id', record!.id).update({ name });
};
