import type { Hook } from '../../../engine/index.ts';

/** beforeCreate: a product sent without units is counted in Units, and bought in its sales unit. */
export const defaultUnits: Hook = async ({ trx, values }) => {
  if (values.uom_id === undefined || values.uom_id === null) {
    const units = await trx('unit_of_measures')
      .join('unit_of_measure_categories', 'unit_of_measure_categories.id', 'unit_of_measures.category_id')
      .where('unit_of_measure_categories.name', 'Unit')
      .where('unit_of_measures.type', 'reference')
      .whereNull('unit_of_measures.deleted_at')
      .orderBy('unit_of_measures.id')
      .first('unit_of_measures.id');
    values.uom_id = units?.id ?? null;
  }
  if (values.uom_po_id === undefined || values.uom_po_id === null) values.uom_po_id = values.uom_id;
};
