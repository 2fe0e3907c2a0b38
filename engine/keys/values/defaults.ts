// Defaults read when a record is written (`defaultFrom`, Odoo's default= and onchange): a value of
// the record (another field, or a column of a record it references: a task's partner is its
// project's), the acting user or their default company, the clock, or the first record of a
// resource matching a condition (a scrap's source is the first warehouse's stock location). A
// list is tried in order. `defaultOnChange` applies it again on update when what it reads changes
// and the field is not sent, `nullMeans` says what a null sent means, and `defaultRequired` refuses a record the
// default left empty (422 naming the field).
import type { Knex } from 'knex';
import type { AuthUser } from '../../behaviours/types.ts';
import type { DefaultSourceFormat } from '../../definition/format.ts';
import { parseSort } from '../../definition/normalize.ts';
import type { Registry } from '../../definition/registry.ts';
import { applyScope, scopeTest } from '../../definition/scope.ts';
import type { FieldDef, ResourceDef } from '../../definition/types.ts';
import type { FieldErrors } from '../../errors/http-errors.ts';
import { nowTimestamp } from '../../serialize/value-formats.ts';
import { defaultSources, fillReads, isOwnValue } from '../../definition/value-rules.ts';
import { companyOf, type Entry, own, type ReferencedRows, sameStored } from './record-values.ts';
import { todayFor } from '../company-today.ts';

export interface DefaultContext {
  trx: Knex.Transaction;
  registry: Registry;
  user: AuthUser;
  /** The acting user's default company (`{user: company}`). */
  userCompany(): number | null;
}

/** Fills the field's default in the entries it applies to. */
export async function fillDefault(context: DefaultContext, def: ResourceDef, field: FieldDef, rows: ReferencedRows, entries: readonly Entry[], mode: 'create' | 'update') {
  const applying = entries.filter((entry) => applies(def, field, entry, mode));
  if (applying.length === 0) return;
  const found = field.defaultFrom === undefined ? new Map<Entry, unknown>() : await resolve(context, def, field, rows, applying);
  for (const entry of applying) {
    // The sources tried, the constant default (if any) is the last resort.
    const value = found.get(entry) ?? field.default ?? null;
    // A new record the default found nothing for keeps the column's own default; a value sent or kept is replaced.
    if (value !== null || entry.values[field.name] !== undefined || mode === 'update') entry.values[field.name] = value;
  }
}

/** `defaultRequired`: a record the default left empty is refused, each such field named. */
export function unresolved(fields: readonly FieldDef[], entry: Entry): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of fields) {
    if (!field.defaultRequired || own(entry, field.name) !== null) continue;
    errors[field.name] = [typeof field.defaultRequired === 'string' ? field.defaultRequired : `The ${field.name} field could not be resolved automatically.`];
  }
  return errors;
}

function applies(def: ResourceDef, field: FieldDef, entry: Entry, mode: 'create' | 'update'): boolean {
  let sent = entry.values[field.name];
  if (sent === null && field.nullMeans === 'default') return true;
  if (sent === null && field.nullMeans === 'unsent') {
    // As if not sent: on update the stored value stays, unless a change brings the default again.
    delete entry.values[field.name];
    sent = undefined;
  }
  if (sent !== undefined) return false;
  if (mode === 'create') return true;
  // What the default reads changed (a task moved to another project): it applies again.
  return field.defaultOnChange === true && fillReads(def, field).some((name) => entry.values[name] !== undefined && !sameStored(entry.values[name], entry.record?.[name]));
}

/** The first source that gives each entry a value. */
async function resolve(context: DefaultContext, def: ResourceDef, field: FieldDef, rows: ReferencedRows, entries: readonly Entry[]): Promise<Map<Entry, unknown>> {
  const found = new Map<Entry, unknown>();
  let pending = [...entries];
  for (const source of defaultSources(field)) {
    if (pending.length === 0) break;
    const values = await fromSource(context, def, field, source, rows, pending);
    for (const [index, entry] of pending.entries()) if (values[index] !== null && values[index] !== undefined) found.set(entry, values[index]);
    pending = pending.filter((entry) => !found.has(entry));
  }
  return found;
}

async function fromSource(context: DefaultContext, def: ResourceDef, field: FieldDef, source: DefaultSourceFormat, rows: ReferencedRows, entries: Entry[]): Promise<unknown[]> {
  if (typeof source === 'string') {
    await rows.loadPaths([source], entries);
    return entries.map((entry) => rows.value(entry, source));
  }
  if ('user' in source) return entries.map(() => (source.user === 'id' ? context.user.id : context.userCompany()));
  if ('now' in source) {
    if (field.type !== 'date') return entries.map(() => nowTimestamp());
    return Promise.all(entries.map((entry) => todayFor(context.trx, companyOf(def, entry))));
  }
  // The first record: one query per distinct set of the record's values it depends on.
  const owned = Object.entries(source.where ?? {}).filter(([, condition]) => isOwnValue(condition));
  await rows.loadPaths(
    owned.map(([, condition]) => (condition as { field: string }).field),
    entries,
  );
  const byKey = new Map<string, Promise<unknown>>();
  return Promise.all(
    entries.map((entry) => {
      const mine = owned.map(([, condition]) => rows.value(entry, (condition as { field: string }).field));
      const key = JSON.stringify(mine);
      if (!byKey.has(key)) byKey.set(key, firstRecord(context, source as FirstSource, new Map(owned.map(([column], index) => [column, mine[index]]))));
      return byKey.get(key)!;
    }),
  );
}

type FirstSource = Extract<DefaultSourceFormat, { first: string }>;

/** The first live record of the resource (its scope applied, by `sort` then id) matching `where`: its id, or its `column`. */
async function firstRecord(context: DefaultContext, source: FirstSource, ownValues: ReadonlyMap<string, unknown>): Promise<unknown> {
  const { trx, registry } = context;
  const target = registry.get(source.first);
  const column = source.column ?? 'id';
  const query = trx(target.table).first(`${target.table}.${column} as value`);
  if (target.softDelete) query.whereNull(`${target.table}.deleted_at`);
  applyScope(query, target, registry, trx);
  if (source.column) query.whereNotNull(`${target.table}.${column}`);
  for (const [key, condition] of Object.entries(source.where ?? {})) {
    const [relationName, relationColumn] = key.includes('.') ? (key.split('.') as [string, string]) : [undefined, key];
    // `relation.column`: a condition on the record a belongsTo relation of the target names.
    const relation = relationName ? target.relations.get(relationName)! : undefined;
    const table = relation ? registry.get(relation.resource).table : target.table;
    const where = (builder: Knex.QueryBuilder) => {
      const qualified = `${table}.${relationColumn}`;
      if (isOwnValue(condition)) {
        const value = ownValues.get(key);
        // Null matches null (a location of no company, for a source of none).
        if (value === null || value === undefined) builder.whereNull(qualified);
        else if (condition.orNull) builder.where((either) => either.where(qualified, value as Knex.Value).orWhereNull(qualified));
        else builder.where(qualified, value as Knex.Value);
      } else {
        const { operator, operand } = scopeTest(condition);
        builder.where(qualified, operator, operand);
      }
      return builder;
    };
    if (relation) query.whereIn(`${target.table}.${relation.foreignKey}`, where(trx(table).select(`${table}.id`)));
    else where(query);
  }
  for (const sort of parseSort(source.sort ?? 'id')) query.orderBy(`${target.table}.${sort.name}`, sort.descending ? 'desc' : 'asc');
  query.orderBy(`${target.table}.id`);
  return ((await query) as { value?: unknown } | undefined)?.value ?? null;
}
