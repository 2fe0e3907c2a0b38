// An early-payment discount is offered only by a payment term of one due term of 100 %, as Odoo
// has it: the discount is on the whole amount, paid at once. Checked from both sides: turning the
// discount on (a payment term's update) and changing the due terms of a term that offers one.
import { ValidationError, type Hook } from '../../../engine/index.ts';

const SINGLE_LINE = 'The Early Payment Discount functionality can only be used with payment terms using a single 100% line.';

interface DueTermValues {
  id?: number;
  value: string;
  value_amount: number | string;
}

const whole = (due: DueTermValues) => due.value === 'percent' && Number(due.value_amount) === 100;

/** beforeUpdate of a payment term: the discount turned on (or kept) needs one 100 % due term. */
export const checkEarlyDiscountTerm: Hook = async ({ trx, values, record }) => {
  const offers = values.early_discount ?? record?.early_discount;
  if (!offers || record?.id == null) return;
  const dueTerms: DueTermValues[] = await trx('accounts_payment_due_terms').where('payment_id', record.id).select('id', 'value', 'value_amount');
  if (dueTerms.length > 1 || (dueTerms.length === 1 && !whole(dueTerms[0]!))) throw new ValidationError({ early_discount: [SINGLE_LINE] });
};

/** beforeCreate/beforeUpdate of a due term: under a term with a discount, it stays the one due term, of 100 %. */
export const checkEarlyDiscountDueTerm: Hook = async ({ trx, values, record }) => {
  const termId = values.payment_id ?? record?.payment_id;
  if (termId == null) return;
  const term = await trx('accounts_payment_terms').where('id', termId).first('early_discount');
  if (!term || !Number(term.early_discount)) return;
  const due = { value: values.value ?? record?.value, value_amount: values.value_amount ?? record?.value_amount };
  const others = await trx('accounts_payment_due_terms')
    .where('payment_id', termId)
    .modify((query) => (record?.id == null ? query : query.whereNot('id', record.id)))
    .first('id');
  if (others) throw new ValidationError({ value_amount: [SINGLE_LINE] });
  if (!whole(due)) throw new ValidationError({ [due.value !== 'percent' ? 'value' : 'value_amount']: [SINGLE_LINE] });
};
