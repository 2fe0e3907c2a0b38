// The products module's standard data: the category tree of a fresh installation (reference §4,
// ids 1–10 on an empty database) and two common attributes with their options, so that the
// attribute options have a parent to live under.
//
// Each table is seeded only while it is empty: these are the users' data once installed, so a
// category renamed or deleted must not come back at the next start.
import type { Knex } from 'knex';
import { nowTimestamp } from '../../engine/index.ts';

/** [name, parent's full name]: parents come before their children. */
export const STANDARD_CATEGORIES: Array<[name: string, parent: string | null]> = [
  ['All', null],
  ['Consumable', 'All'],
  ['Expenses', 'All'],
  ['Home Construction', 'All'],
  ['Internal', 'All'],
  ['Saleable', 'All'],
  ['Office Furniture', 'All / Saleable'],
  ['Outdoor furniture', 'All / Saleable'],
  ['Services', 'All / Saleable'],
  ['Saleable', 'All / Saleable / Services'],
];

export const STANDARD_ATTRIBUTES: Array<{ name: string; type: 'radio' | 'select' | 'color'; options: Array<[name: string, color: string | null]> }> = [
  {
    name: 'Size',
    type: 'radio',
    options: [
      ['S', null],
      ['M', null],
      ['L', null],
      ['XL', null],
    ],
  },
  {
    name: 'Color',
    type: 'color',
    options: [
      ['White', '#ffffff'],
      ['Black', '#000000'],
      ['Red', '#ff0000'],
      ['Blue', '#0000ff'],
    ],
  },
];

export async function seedProducts(knex: Knex, creatorId: number | null): Promise<number> {
  return (await seedCategories(knex, creatorId)) + (await seedAttributes(knex, creatorId));
}

/** The category tree, with the full_name and parent_path the category behaviours maintain. */
async function seedCategories(knex: Knex, creatorId: number | null): Promise<number> {
  if (await knex('products_categories').first('id')) return 0;
  const now = nowTimestamp();
  await knex.transaction(async (trx) => {
    const stored = new Map<string, { id: number; path: string }>();
    for (const [name, parentName] of STANDARD_CATEGORIES) {
      const parent = parentName === null ? undefined : stored.get(parentName)!;
      const fullName = parent ? `${parentName} / ${name}` : name;
      const parentPath = parent ? `${parent.path}${parent.id}/` : '/';
      const [id] = await trx('products_categories').insert({
        name,
        full_name: fullName,
        parent_path: parentPath,
        parent_id: parent?.id ?? null,
        creator_id: creatorId,
        created_at: now,
        updated_at: now,
      });
      stored.set(fullName, { id: Number(id), path: parentPath });
    }
  });
  return STANDARD_CATEGORIES.length;
}

/** The attributes in order (sort 1, 2, ...), each with its options. */
async function seedAttributes(knex: Knex, creatorId: number | null): Promise<number> {
  if (await knex('products_attributes').first('id')) return 0;
  const now = nowTimestamp();
  const stamp = { creator_id: creatorId, created_at: now, updated_at: now };
  let added = 0;
  let optionSort = 0;
  await knex.transaction(async (trx) => {
    for (const [index, attribute] of STANDARD_ATTRIBUTES.entries()) {
      const [id] = await trx('products_attributes').insert({ name: attribute.name, type: attribute.type, sort: index + 1, ...stamp });
      const options = attribute.options.map(([name, color]) => ({ name, color, extra_price: 0, sort: ++optionSort, attribute_id: Number(id), ...stamp }));
      added += 1 + options.length;
      await trx('products_attribute_options').insert(options);
    }
  });
  return added;
}
