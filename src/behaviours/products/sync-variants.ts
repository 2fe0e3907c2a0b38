// POST /accounts/products/{id}/sync-variants, and the original's parameterless POST
// /products/products/{product}/variants and /accounts/products/{product}/variants (reference-o2c-p2p
// §3.6, reference-projects-extras §7): one variant per combination of one value of each of the
// product's attributes (products_product_attribute_values), named "<product> - <value> / <value>" and priced at the
// product's price plus the values' extra prices. A variant of a combination still offered is
// updated (and restored when archived), one of a combination no longer offered is archived, and
// the product becomes configurable. A product without attribute values changes nothing.
//
// The statements do not grow with the number of variants: new variants are created through the
// engine with multi-row INSERTs, their values likewise, and the updates are one CASE statement per
// 50 rows.
import { ActionRefusedError, nowTimestamp, type Action } from '../../../engine/index.ts';

/** More combinations than this are refused (422) rather than written. */
export const MAX_VARIANTS = 1000;

const ROWS_PER_INSERT = 100;
const IDS_PER_STATEMENT = 500;

/** Columns a variant takes from its product as they are. */
const INHERITED = [
  'type',
  'cost',
  'uom_id',
  'uom_po_id',
  'category_id',
  'company_id',
  'enable_sales',
  'enable_purchase',
  'sales_ok',
  'purchase_ok',
  'invoice_policy',
  'purchase_method',
  'is_storable',
  'tracking',
  'property_account_income_id',
  'property_account_expense_id',
] as const;

/** Of INHERITED, the columns a body gives as numbers and as booleans (the row may hold text and 0/1). */
const NUMBERS = new Set(['cost']);
const FLAGS = new Set(['enable_sales', 'enable_purchase', 'sales_ok', 'purchase_ok', 'is_storable']);

/** What a new variant takes from its product, as a create body gives it. */
function inheritedBody(product: Record<string, any>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const column of INHERITED) {
    const value = product[column] ?? null;
    body[column] = value === null ? null : NUMBERS.has(column) ? Number(value) : FLAGS.has(column) ? Boolean(Number(value)) : value;
  }
  return body;
}

interface OptionRow {
  id: number;
  name: string;
  extra_price: string | number | null;
  attribute_id: number;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/** Every choice of one value per attribute, in the attributes' and values' order. */
function combinations(groups: readonly OptionRow[][]): OptionRow[][] {
  let result: OptionRow[][] = [[]];
  for (const group of groups) result = result.flatMap((partial) => group.map((option) => [...partial, option]));
  return result;
}

const keyOf = (optionIds: readonly number[]) => [...optionIds].sort((a, b) => a - b).join(',');

function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export const syncVariants: Action = async ({ trx, def, record: product, records }) => {
  if (product.parent_id !== null && product.parent_id !== undefined) throw new ActionRefusedError('A product variant cannot have variants of its own.');
  // Run on a variants collection (POST …/{product}/variants) its changes are that resource's.
  const variantsResource = def.parent ? def.name : 'accounts/product-variants';

  // The values of the product's attributes (products/product-attributes), in the attributes' order.
  const options: OptionRow[] = await trx('products_product_attribute_values as offered')
    .join('products_product_attributes as pa', 'pa.id', 'offered.product_attribute_id')
    .join('products_attribute_options as opt', 'opt.id', 'offered.attribute_option_id')
    .join('products_attributes as attr', 'attr.id', 'opt.attribute_id')
    .where('offered.product_id', product.id)
    .whereNull('attr.deleted_at')
    .orderBy([{ column: 'pa.sort' }, { column: 'pa.id' }, { column: 'opt.sort' }, { column: 'opt.id' }])
    .select('opt.id', 'opt.name', trx.raw('COALESCE(offered.extra_price, opt.extra_price) AS extra_price'), 'opt.attribute_id');
  if (options.length === 0) return;

  // One group per attribute: an attribute attached twice offers the values of both, each once.
  const groups = new Map<number, OptionRow[]>();
  for (const option of options) {
    const group = groups.get(Number(option.attribute_id)) ?? [];
    if (!group.some((other) => Number(other.id) === Number(option.id))) group.push(option);
    groups.set(Number(option.attribute_id), group);
  }
  const count = [...groups.values()].reduce((total, group) => total * group.length, 1);
  if (count > MAX_VARIANTS) throw new ActionRefusedError(`The product's attribute values make ${count} variants; at most ${MAX_VARIANTS} are made.`);
  const wanted = combinations([...groups.values()]);

  // The variants there are, archived ones too, by the values they combine.
  const existing = await trx('products_products').where('parent_id', product.id).select('id', 'deleted_at');
  const values = await trx('products_product_variant_values')
    .whereIn('product_id', trx('products_products').select('id').where('parent_id', product.id))
    .select('product_id', 'attribute_option_id');
  const optionsOf = new Map<number, number[]>(existing.map((row) => [Number(row.id), []]));
  for (const row of values) optionsOf.get(Number(row.product_id))?.push(Number(row.attribute_option_id));
  const byKey = new Map<string, { id: number; trashed: boolean }>();
  for (const row of existing) {
    const key = keyOf(optionsOf.get(Number(row.id))!);
    if (!byKey.has(key)) byKey.set(key, { id: Number(row.id), trashed: row.deleted_at !== null });
  }

  const now = nowTimestamp();
  const inherited: Record<string, unknown> = {};
  for (const column of INHERITED) inherited[column] = product[column] ?? null;
  const describe = (combination: OptionRow[]) => {
    const names = combination.map((option) => option.name);
    const price = combination.reduce((sum, option) => sum + Number(option.extra_price ?? 0), Number(product.price ?? 0));
    return {
      name: `${product.name} - ${names.join(' / ')}`.slice(0, 255),
      price: Math.round(price * 10000) / 10000,
      reference: product.reference ? `${product.reference}-${slug(names.join(' '))}`.slice(0, 255) : null,
    };
  };

  const kept: Array<{ id: number; values: Record<string, unknown> }> = [];
  const restored: number[] = [];
  const fresh: OptionRow[][] = [];
  for (const combination of wanted) {
    const found = byKey.get(keyOf(combination.map((option) => Number(option.id))));
    if (!found) {
      fresh.push(combination);
      continue;
    }
    byKey.delete(keyOf(combination.map((option) => Number(option.id))));
    kept.push({ id: found.id, values: describe(combination) });
    if (found.trashed) restored.push(found.id);
  }
  const keptIds = new Set(kept.map((row) => row.id));
  const vanished = existing.filter((row) => row.deleted_at === null && !keptIds.has(Number(row.id))).map((row) => Number(row.id));

  // Kept variants: what they share with the product and their own name, price and reference, set
  // based (one statement per 50); archived ones among them come back (restored).
  const variants = records(variantsResource);
  const restoredIds = new Set(restored);
  const keptValues = (row: { id: number; values: Record<string, unknown> }) => ({ id: row.id, values: { ...inherited, deleted_at: null, ...row.values } });
  await variants.updateEach(kept.filter((row) => !restoredIds.has(row.id)).map(keptValues));
  await variants.updateEach(kept.filter((row) => restoredIds.has(row.id)).map(keptValues), 'restored');

  // New variants: created through the engine, all at once (multi-row INSERTs, whatever their
  // number), then their values. The values are the links of the variants' own attributeValues
  // relation, which no body writes: inserted here, many rows a statement.
  if (fresh.length > 0) {
    const body = inheritedBody(product);
    const ids = await variants.createMany(
      fresh.map((combination) => ({ ...body, ...describe(combination), parent_id: product.id, is_configurable: false, is_favorite: false })),
      { system: true },
    );
    const links = fresh.flatMap((combination, index) => combination.map((option) => ({ product_id: ids[index], attribute_option_id: option.id })));
    for (const chunk of chunks(links, ROWS_PER_INSERT * 2)) await trx('products_product_variant_values').insert(chunk);
  }

  for (const ids of chunks(vanished, IDS_PER_STATEMENT)) await variants.updateMany(ids, { deleted_at: now }, 'deleted');
  // The product as the action sees it: the acting record, or the collection's parent.
  await records(def.parent?.resource ?? def.name).updateMany([Number(product.id)], { is_configurable: true });
};
