// Purchase agreements (reference §5.6): their dates and names, their lines' defaults, and the
// three actions. The state each action needs is declared in resources/purchases/purchase-agreements.yaml.
import { nowTimestamp, ValidationError, type Action, type BatchHook, type Hook } from '../../../engine/index.ts';
import { configurableProductMessage } from './configurable-products.ts';

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

/** Before an agreement's lines are written, all at once: a product variant, the product's unit by default, the agreement's company. */
export const prepareAgreementLines: BatchHook = async (contexts) => {
  if (contexts.length === 0) return;
  const { trx } = contexts[0]!;
  const agreementIds = [...new Set(contexts.map(({ values, record }) => Number(values.requisition_id ?? record?.requisition_id)))];
  const agreements = new Map((await trx('purchases_requisitions').whereIn('id', agreementIds).select('id', 'company_id')).map((row) => [Number(row.id), row]));
  const productIds = [...new Set(contexts.filter(({ values }) => values.product_id !== undefined).map(({ values }) => Number(values.product_id)))];
  const products = new Map(
    (productIds.length === 0 ? [] : await trx('products_products').whereIn('id', productIds).select('id', 'name', 'uom_id', 'is_configurable')).map((row) => [Number(row.id), row]),
  );
  for (const { values, record, index } of contexts) {
    if (values.product_id !== undefined) {
      const product = products.get(Number(values.product_id))!;
      if (Number(product.is_configurable)) throw new ValidationError({ product_id: [configurableProductMessage(product.name, 'in purchase agreements')] }, index);
      values.uom_id ??= product.uom_id;
    }
    values.company_id = agreements.get(Number(values.requisition_id ?? record?.requisition_id))?.company_id ?? null;
  }
};

const moveTo =
  (state: string): Action =>
  async ({ trx, record }) => {
    await trx('purchases_requisitions').where('id', record.id).update({ state, updated_at: nowTimestamp() });
  };

export const confirmAgreement = moveTo('confirmed');
export const closeAgreement = moveTo('closed');
export const cancelAgreement = moveTo('canceled');
