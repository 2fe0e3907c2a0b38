// `append` on an integer sort field: a record created without it goes last, the highest value + 1
// of its table, or with `per: <field>` of the records with the same value of that field (an
// order's lines go last in their order), as the original's sortable models do. A value sent is
// kept. Records created together take the next values in turn, read with one statement. After a
// record at the highest storable value, new ones share it (ties are ordered by id) rather than fail.
import { Type } from '@sinclair/typebox';
import type { Knex } from 'knex';
import type { FieldDef, ResourceDef } from '../definition/types.ts';
import type { RuleKey } from './types.ts';
import { fieldsWhere } from '../definition/per-definition.ts';

/** The highest value a `sort` column (a signed INT) stores. */
export const MAX_SORT = 2147483647;

/** The field an `append` counts within (`per`), if not the whole table. */
export function appendPer(field: FieldDef): string | undefined {
  return typeof field.append === 'object' ? field.append.per : undefined;
}

export const append: RuleKey = {
  key: 'append',
  format: {
    at: 'field',
    schema: Type.Union([Type.Boolean(), Type.Object({ per: Type.String({ pattern: '^[a-z][a-z0-9_]*$' }) }, { additionalProperties: false })], {
      description:
        "an integer sort field: a record created without it goes last, the highest value + 1 in its table, or with `per: <field>` among the records with the same value of that field (an order's lines); a value sent is kept",
    }),
  },
  check(def, _resources, problem) {
    for (const field of def.fields.values()) {
      if (!field.append) continue;
      const at = `fields.${field.name}.append`;
      const per = appendPer(field);
      if (field.type !== 'integer' || !field.stored) problem(at, 'append applies to a stored integer field');
      else if (field.required) problem(at, 'a field the engine fills when left out cannot be required');
      else if (per !== undefined && !def.fields.get(per)?.stored) problem(at, `per: "${per}" is not a stored field of this resource`);
    }
  },
  describeField(_def, field) {
    if (!field.append) return [];
    const per = appendPer(field);
    const last = per ? `last among the records with the same \`${per}\` (their highest + 1)` : 'last (the highest in its table + 1)';
    return [field.writable ? `${last[0]!.toUpperCase()}${last.slice(1)} when not sent.` : `Set on create: ${last}.`];
  },
  step: {
    key: 'append',
    uses: (def, _registry, phase) => phase === 'create' && appendFields(def).length > 0,
    beforeCreate: (context, def, hooks) => appendLast(context.trx, def, hooks),
  },
};

/** The resource's fields with `append`, worked out once. */
const appendFields = fieldsWhere((field) => field.append);

/** Gives the records created together that lack a value of an `append` field the next ones (of the table, or of their `per` group). */
async function appendLast(trx: Knex.Transaction, def: ResourceDef, entries: ReadonlyArray<{ values: Record<string, unknown> }>): Promise<void> {
  for (const field of appendFields(def)) {
    const missing = entries.filter(({ values }) => values[field.name] === undefined || values[field.name] === null);
    if (missing.length === 0) continue;
    const per = appendPer(field);
    const groupOf = (values: Record<string, unknown>) => (per === undefined ? '' : String(values[per] ?? ''));
    const next = await highestOf(trx, def, field, per, missing);
    for (const { values } of missing) {
      const value = Math.min((next.get(groupOf(values)) ?? 0) + 1, MAX_SORT);
      next.set(groupOf(values), value);
      values[field.name] = value;
    }
  }
}

/** The highest stored value, by `per` group ('' for the table, or for records without a group). */
async function highestOf(
  trx: Knex.Transaction,
  def: ResourceDef,
  field: FieldDef,
  per: string | undefined,
  entries: ReadonlyArray<{ values: Record<string, unknown> }>,
): Promise<Map<string, number>> {
  if (per === undefined) {
    const row = await trx(def.table).max({ highest: field.name }).first();
    return new Map([['', Number(row?.highest ?? 0)]]);
  }
  const groups = [...new Set(entries.map(({ values }) => values[per]).filter((value) => value !== undefined && value !== null))];
  const query = trx(def.table).select(per).max({ highest: field.name }).groupBy(per);
  const withoutGroup = entries.some(({ values }) => values[per] === undefined || values[per] === null);
  query.where((where) => {
    if (groups.length > 0) where.whereIn(per, groups as Knex.Value[]);
    if (withoutGroup) where.orWhereNull(per);
  });
  const highest = new Map<string, number>();
  for (const row of (await query) as Array<Record<string, unknown>>) highest.set(String(row[per] ?? ''), Number(row.highest ?? 0));
  return highest;
}
