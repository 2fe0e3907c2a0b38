// The standard UOM categories and units of a fresh installation (factors relative to the
// category's reference unit; rounding 0.01).
import type { Knex } from 'knex';
import { nowTimestamp } from '../../engine/index.ts';

type Unit = [name: string, type: 'reference' | 'bigger' | 'smaller', factor: number];

export const STANDARD_UOMS: Record<string, Unit[]> = {
  Unit: [
    ['Units', 'reference', 1],
    ['Dozens', 'bigger', 1 / 12],
  ],
  Weight: [
    ['kg', 'reference', 1],
    ['g', 'smaller', 1000],
    ['t', 'bigger', 0.001],
    ['lb', 'smaller', 2.20462],
    ['oz', 'smaller', 35.274],
  ],
  'Working Time': [
    ['Days', 'reference', 1],
    ['Hours', 'smaller', 8],
  ],
  'Length / Distance': [
    ['m', 'reference', 1],
    ['mm', 'smaller', 1000],
    ['km', 'bigger', 0.001],
    ['cm', 'smaller', 100],
    ['in', 'smaller', 39.3701],
    ['ft', 'smaller', 3.28084],
    ['yd', 'smaller', 1.09361],
    ['mi', 'bigger', 0.000621371],
  ],
  Surface: [
    ['m²', 'reference', 1],
    ['ft²', 'smaller', 10.76391],
  ],
  Volume: [
    ['L', 'reference', 1],
    ['m³', 'bigger', 0.001],
    ['fl oz (US)', 'smaller', 33.814],
    ['qt (US)', 'smaller', 1.05669],
    ['gal (US)', 'bigger', 0.26417217685798894],
    ['in³', 'smaller', 61.0237],
    ['ft³', 'bigger', 0.035314724827664144],
  ],
};

export async function seedUnitsOfMeasure(knex: Knex, creatorId: number | null): Promise<number> {
  const now = nowTimestamp();
  let added = 0;
  for (const [categoryName, units] of Object.entries(STANDARD_UOMS)) {
    let category = await knex('unit_of_measure_categories').where('name', categoryName).first('id');
    if (!category) {
      const [id] = await knex('unit_of_measure_categories').insert({ name: categoryName, creator_id: creatorId, created_at: now, updated_at: now });
      category = { id };
      added++;
    }
    const existing = new Set(await knex('unit_of_measures').where('category_id', category.id).pluck('name'));
    const rows = units
      .filter(([name]) => !existing.has(name))
      .map(([name, type, factor]) => ({ name, type, factor, rounding: 0.01, category_id: category.id, creator_id: creatorId, created_at: now, updated_at: now }));
    if (rows.length > 0) await knex('unit_of_measures').insert(rows);
    added += rows.length;
  }
  return added;
}
