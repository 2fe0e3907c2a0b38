import type { Hook } from '../../../engine/index.ts';

/**
 * beforeCreate: a record created without `company_id` belongs to its warehouse's company (when it
 * has a warehouse), else to the installation's first company, as the original fills in the
 * current company of its company-scoped models (operation types, rules, package types).
 */
export const defaultCompany: Hook = async ({ trx, values }) => {
  if (values.company_id !== undefined && values.company_id !== null) return;
  const warehouse = values.warehouse_id ? await trx('inventories_warehouses').where('id', values.warehouse_id).first('company_id') : undefined;
  values.company_id = warehouse?.company_id ?? (await trx('companies').orderBy('id').first('id'))?.id ?? null;
};
