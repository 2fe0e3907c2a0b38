// A scrap's defaults and checks, on create and update of a draft (reference-projects-extras §4.4):
// the unit defaults to the product's (on update: the scrap's own, unless the product changes),
// the source to the first warehouse's stock location, the destination to the first scrap location
// of the source's company, the company to the user's default one (company scope) or the source's;
// what stays unknown is a 422. Both locations must be of one company, the lot of the product (and
// named when the product is tracked by lot or serial number), the unit of the product's category.
import { ActionRefusedError, ValidationError, type FieldErrors, type Hook } from '../../../../engine/index.ts';
import { nextDocumentName } from '../../support/next-document-name.ts';
import { unitsById } from '../units.ts';

type Trx = Parameters<Hook>[0]['trx'];

export const prepareScrap: Hook = async ({ trx, values, record }) => {
  if (record?.state === 'done') throw new ActionRefusedError('Done scraps cannot be updated.');
  const pick = (field: string) => (values[field] !== undefined ? values[field] : record?.[field]);
  const product = await trx('products_products').where('id', pick('product_id')).first('id', 'name', 'type', 'tracking', 'uom_id');
  if (values.product_id !== undefined && product.type === 'service') {
    throw new ValidationError({ product_id: [`The product '${product.name}' is a service and cannot be scrapped.`] });
  }
  // A new product brings its unit unless one is sent; otherwise the scrap keeps its own.
  if (values.uom_id == null)
    values.uom_id = values.product_id !== undefined && Number(values.product_id) !== Number(record?.product_id) ? product.uom_id : (record?.uom_id ?? product.uom_id);
  values.source_location_id ??= record?.source_location_id ?? (await firstStockLocation(trx));
  if (values.destination_location_id == null) values.destination_location_id = record?.destination_location_id ?? (await firstScrapLocation(trx, values.source_location_id));
  const locations = new Map(
    (
      await trx('inventories_locations')
        .whereIn(
          'id',
          [values.source_location_id, values.destination_location_id].filter((id) => id != null),
        )
        .select('id', 'name', 'full_name', 'company_id')
    ).map((row) => [Number(row.id), row]),
  );
  values.company_id ??= record?.company_id ?? locations.get(Number(values.source_location_id))?.company_id ?? null;

  const unresolved = (['uom_id', 'source_location_id', 'destination_location_id', 'company_id'] as const).filter((field) => values[field] == null);
  if (unresolved.length > 0) {
    throw new ValidationError(Object.fromEntries(unresolved.map((field) => [field, [`The ${field} field could not be resolved automatically.`]])));
  }
  const errors: FieldErrors = {};
  const source = locations.get(Number(values.source_location_id))!;
  const destination = locations.get(Number(values.destination_location_id))!;
  if (source.company_id != null && destination.company_id != null && Number(source.company_id) !== Number(destination.company_id)) {
    errors.destination_location_id = [
      `A transfer cannot move stock directly between locations that belong to different companies (${source.full_name ?? source.name} and ${destination.full_name ?? destination.name}). Inter-company transfers are not supported yet.`,
    ];
  }
  const units = await unitsById(trx, [values.uom_id, product.uom_id]);
  if (units.get(Number(values.uom_id))?.category_id !== units.get(Number(product.uom_id))?.category_id) {
    errors.uom_id = ["The unit must be of the product's unit category."];
  }
  const lotId = pick('lot_id');
  if (lotId != null) {
    const lot = await trx('inventories_lots').where('id', lotId).first('product_id');
    if (Number(lot.product_id) !== Number(product.id)) errors.lot_id = ['The lot is not a lot of this product.'];
  } else if (product.tracking === 'lot' || product.tracking === 'serial') {
    errors.lot_id = [`The product '${product.name}' is tracked by ${product.tracking === 'lot' ? 'lot' : 'serial number'}: name the lot to scrap.`];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  if (!record) {
    values.state = 'draft';
    values.name = await nextDocumentName(trx, { code: 'inventories.scrap', companyId: Number(values.company_id), prefix: 'SP/', padding: 5 });
  }
};

/** beforeDelete: a done scrap is history (its stock move stays). */
export const guardScrapDelete: Hook = ({ record }) => {
  if (record!.state === 'done') throw new ActionRefusedError('Done scraps cannot be deleted.');
};

/** The stock location of the first warehouse. */
async function firstStockLocation(trx: Trx): Promise<number | null> {
  const warehouse = await trx('inventories_warehouses').whereNull('deleted_at').whereNotNull('lot_stock_location_id').orderBy('id').first('lot_stock_location_id');
  return warehouse?.lot_stock_location_id ?? null;
}

/** The first scrap location of the source's company (of none, for a source of none). */
async function firstScrapLocation(trx: Trx, sourceId: unknown): Promise<number | null> {
  if (sourceId == null) return null;
  const source = await trx('inventories_locations').where('id', sourceId).first('company_id');
  const query = trx('inventories_locations').where('is_scrap', true).whereNull('deleted_at').orderBy('id').first('id');
  if (source?.company_id == null) query.whereNull('company_id');
  else query.where('company_id', source.company_id);
  return (await query)?.id ?? null;
}
