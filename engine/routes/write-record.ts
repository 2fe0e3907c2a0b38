// Writing one record inside a transaction: its columns, the engine-managed columns, its
// behaviours, its many-to-many ids and its nested records (recursively). Used by the create and
// update handlers, and for every nested record they write.
import type { Knex } from 'knex';
import type { AuthUser, Behaviours, HookContext } from '../behaviours/types.ts';
import type { Registry } from '../definition/registry.ts';
import { ownScope } from '../definition/scope.ts';
import type { Behaviours as PhaseNames, FieldDef, ResourceDef } from '../definition/types.ts';
import { ValidationError, type FieldErrors } from '../errors/http-errors.ts';
import { nowTimestamp } from '../serialize/formats.ts';
import { placeholders, quote } from '../sql/quote.ts';
import type { Statements } from '../sql/statements.ts';
import type { NestedEntry, Values } from '../validation/body-validator.ts';

export interface WriteContext {
  trx: Knex.Transaction;
  registry: Registry;
  behaviours: Behaviours;
  user: AuthUser;
  params: Record<string, string>;
}

/** Inserts a record (and what it carries); returns its id. `fixed` holds columns set by the engine (parent key). */
export async function insertRecord(context: WriteContext, def: ResourceDef, values: Values, fixed: Values = {}): Promise<number> {
  const { trx } = context;
  completeNewRecord(def, values, fixed, context.user);
  const hook = hookContext(context, def, values);
  await runHooks(context, def, 'beforeCreate', hook);
  const [insertedId] = await trx(def.table).insert(columns(def, values));
  const id = Number(insertedId);
  await writeCarried(context, def, id, values, 'create');
  if (def.behaviours.afterCreate.length > 0) {
    hook.record = await trx(def.table).where('id', id).first();
    await runHooks(context, def, 'afterCreate', hook);
  }
  return id;
}

/** The columns the engine sets on a new record: the parent key, the scope, creator, timestamps and defaults. */
function completeNewRecord(def: ResourceDef, values: Values, fixed: Values, user: AuthUser): void {
  Object.assign(values, fixed, ownScope(def));
  if (def.creator) values.creator_id = user.id;
  if (def.timestamps) values.created_at = values.updated_at = nowTimestamp();
  for (const field of def.fields.values()) {
    if (values[field.name] === undefined && field.default !== undefined && field.stored) values[field.name] = field.default;
  }
}

/** A create that is one INSERT (no behaviours, nothing written to other tables) needs no transaction. */
export function singleStatementCreate(def: ResourceDef, values: Values): boolean {
  if (def.behaviours.beforeCreate.length > 0 || def.behaviours.afterCreate.length > 0) return false;
  return ![...def.fields.values()].some((field) => (field.type === 'ids' || field.type === 'records') && values[field.name] != null);
}

/** Such a create, as one prepared INSERT; returns the new id. */
export async function insertSingle(statements: Statements, user: AuthUser, def: ResourceDef, values: Values, fixed: Values = {}): Promise<number> {
  completeNewRecord(def, values, fixed, user);
  const row = Object.entries(columns(def, values)).filter(([, value]) => value !== undefined);
  const sql = `INSERT INTO ${quote(def.table)} (${row.map(([column]) => quote(column)).join(', ')}) VALUES (${placeholders(row.length)})`;
  return statements.insert(sql, row.map(([, value]) => value));
}

/** Updates the fields sent, and replaces the ids and nested records sent. */
export async function updateRecord(context: WriteContext, def: ResourceDef, id: number, values: Values, current: Values): Promise<void> {
  const { trx } = context;
  const hook = hookContext(context, def, values, current);
  await runHooks(context, def, 'beforeUpdate', hook);
  const changes = columns(def, values);
  if (Object.keys(changes).length > 0) {
    if (def.timestamps) changes.updated_at = nowTimestamp();
    await trx(def.table).where('id', id).update(changes);
  }
  await writeCarried(context, def, id, values, 'update');
  if (def.behaviours.afterUpdate.length > 0) {
    hook.record = await trx(def.table).where('id', id).first();
    await runHooks(context, def, 'afterUpdate', hook);
  }
}

function columns(def: ResourceDef, values: Values): Values {
  const stored: Values = {};
  for (const [name, value] of Object.entries(values)) {
    const field = def.fields.get(name);
    if (!field || field.stored) stored[name] = value; // undeclared keys come from behaviours and the engine
  }
  return stored;
}

/** Many-to-many ids and nested records sent with the record. */
async function writeCarried(context: WriteContext, def: ResourceDef, id: number, values: Values, mode: 'create' | 'update'): Promise<void> {
  for (const field of def.fields.values()) {
    const value = values[field.name];
    if (value === undefined || value === null) continue;
    if (field.type === 'ids') await replaceIds(context, def, field, id, value as number[]);
    if (field.type === 'records') await syncRecords(context, def, field, id, value as NestedEntry[], mode);
  }
}

/** Replace semantics: the ids sent become the whole set; an empty list clears it. */
async function replaceIds(context: WriteContext, def: ResourceDef, field: FieldDef, id: number, ids: number[]): Promise<void> {
  const through = def.relations.get(field.relation!)!.through!;
  await context.trx(through.table).where(through.from, id).delete();
  if (ids.length > 0) await context.trx(through.table).insert(ids.map((other) => ({ [through.from]: id, [through.to]: other })));
}

/** Entries with an id update that child; the others are created; children left out are deleted. */
async function syncRecords(context: WriteContext, def: ResourceDef, field: FieldDef, id: number, entries: NestedEntry[], mode: 'create' | 'update') {
  const relation = def.relations.get(field.relation!)!;
  const child = context.registry.get(relation.resource);
  const kept = entries.filter((entry) => entry.id !== undefined).map((entry) => entry.id!);
  if (mode === 'update') {
    const removed = context.trx(child.table).where(relation.foreignKey, id);
    if (kept.length > 0) removed.whereNotIn('id', kept);
    await removed.delete();
  }
  for (const [index, entry] of entries.entries()) {
    try {
      if (entry.id === undefined) {
        await insertRecord(context, child, entry.values, { [relation.foreignKey]: id });
      } else {
        const current = await context.trx(child.table).where('id', entry.id).first();
        await updateRecord(context, child, entry.id, entry.values, current);
      }
    } catch (error) {
      // A child's behaviour names its own fields; the client needs their place: lines.1.product_id.
      if (error instanceof ValidationError) throw new ValidationError(prefixed(error.errors, `${field.name}.${index}.`));
      throw error;
    }
  }
}

function prefixed(errors: FieldErrors, prefix: string): FieldErrors {
  const label = (message: string, key: string) => message.replace(`The ${key.replace(/_/g, ' ')} `, `The ${prefix}${key.replace(/_/g, ' ')} `);
  return Object.fromEntries(Object.entries(errors).map(([key, messages]) => [`${prefix}${key}`, messages.map((message) => label(message, key))]));
}

function hookContext(context: WriteContext, def: ResourceDef, values: Values, record?: Values): HookContext {
  return { trx: context.trx, def, user: context.user, values, record, params: context.params };
}


export async function runHooks(context: WriteContext, def: ResourceDef, phase: keyof PhaseNames, hook: HookContext): Promise<void> {
  for (const name of def.behaviours[phase]) await context.behaviours.hooks[name]!(hook);
}
