// Lots: the unit is the product's, and the product must be of the lot's company or of none
// (the original's CrossCompanyException, answered here as a 422 on product_id).
import { ValidationError, type Hook } from '../../../engine/index.ts';

/** beforeCreate/beforeUpdate. */
export const prepareLot: Hook = async ({ trx, values, record }) => {
  if (values.product_id === undefined && values.company_id === undefined) return;
  const product = await trx('products_products')
    .where('id', values.product_id ?? record!.product_id)
    .first('name', 'uom_id', 'company_id');
  if (values.product_id !== undefined) values.uom_id = product.uom_id;
  const companyId = values.company_id !== undefined ? values.company_id : record?.company_id;
  if (companyId != null && product.company_id != null && Number(product.company_id) !== Number(companyId)) {
    throw new ValidationError({
      product_id: [`These records belong to a different company: ${product.name}. Change them or switch the company back.`],
    });
  }
};
