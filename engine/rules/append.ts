// `append: true` on an integer sort field: a record created without it goes last, the highest
// value of its table + 1, as the original's sortable models do. A value sent is kept. Records
// created together take the next values in turn. After a record at the highest storable value,
// new ones share it (ties are ordered by id) rather than fail.
import type { Knex } from 'knex';
import type { FieldDef, ResourceDef } from '../definition/types.ts';

/** The highest value a `sort` column (a signed INT) stores. */
export const MAX_SORT = 2147483647;

const appended = new WeakMap<ResourceDef, FieldDef[]>();

/** The resource's fields with `append`, worked out once. */
export function appendFields(def: ResourceDef): FieldDef[] {
  let found = appended.get(def);
  if (!found) appended.set(def, (found = [...def.fields.values()].filter((field) => field.append)));
  return found;
}

/** Gives the records created together that lack a value of an `append` field the next ones of the table. */
export async function appendLast(trx: Knex.Transaction, def: ResourceDef, entries: ReadonlyArray<{ values: Record<string, unknown> }>): Promise<void> {
  for (const field of appendFields(def)) {
    const missing = entries.filter(({ values }) => values[field.name] === undefined || values[field.name] === null);
    if (missing.length === 0) continue;
    const row = await trx(def.table).max({ highest: field.name }).first();
    let next = Number(row?.highest ?? 0);
    for (const { values } of missing) values[field.name] = next = Math.min(next + 1, MAX_SORT);
  }
}
