// Writing one record inside a transaction: its columns, the engine-managed columns, its
// behaviours, its many-to-many ids and its nested records (recursively). Used by the create and
// update handlers, and for every nested record they write.
import type { Knex } from 'knex';
import type { ChangeSet } from '../behaviours/change-set.ts';
import type { AuthUser, Behaviours, HookContext, Models, Records } from '../behaviours/types.ts';
import type { SchemaBounds } from '../schema/column-bounds.ts';
import type { Registry } from '../definition/registry.ts';
import { applyScope, ownScope } from '../definition/scope.ts';
import type { Behaviours as PhaseNames, FieldDef, RelationDef, ResourceDef } from '../definition/types.ts';
import { ValidationError, type FieldErrors } from '../errors/http-errors.ts';
import { nowTimestamp } from '../serialize/value-formats.ts';
import { placeholders, quote } from '../sql/quote.ts';
import type { Row, Statements } from '../sql/statements.ts';
import type { NestedEntry, Values } from '../validation/body-validator.ts';
import { applyValueRules, createNeedsValueRules, syncRelated } from '../values/index.ts';
import { numberNewRecords, sequenceFields } from '../rules/sequence.ts';
import { appendFields, appendLast } from '../rules/append.ts';
import { refuseLockedUpdates } from '../rules/locks.ts';
import { finishTreeInsert, moveSubtree, placeInTree } from '../rules/tree.ts';
import { templateFields, writeTemplates } from '../rules/template.ts';
import { applyFormulas, formulaFields } from '../rules/formula.ts';

export interface WriteContext {
  trx: Knex.Transaction;
  /** What the unit changed (engine/changes): every record written here is added. */
  changes: ChangeSet;
  registry: Registry;
  behaviours: Behaviours;
  user: AuthUser;
  /** The acting user's default company (definitions' `defaultFrom: {user: company}`). */
  userCompany(): number | null;
  params: Record<string, string>;
  models: Models;
  /** What each column stores: bounds the bodies behaviours write (engine/schema/column-bounds.ts). */
  bounds?: SchemaBounds;
  /** Other resources' records, written through this same path (record-writer.ts). */
  records: Records;
}

/** Inserts a record (and what it carries); returns its id. `fixed` holds columns set by the engine (parent key). */
export async function insertRecord(context: WriteContext, def: ResourceDef, values: Values, fixed: Values = {}): Promise<number> {
  const { trx } = context;
  completeNewRecord(def, values, fixed, context.user);
  const hook = hookContext(context, def, values);
  await runBefore(context, def, 'create', [hook]);
  const [insertedId] = await trx(def.table).insert(columns(def, values));
  const id = Number(insertedId);
  context.changes.add(def.name, id, 'created');
  await finishTreeInsert(trx, def, id, values);
  await writeTemplates(trx, def, id, values);
  await writeCarried(context, def, id, values, 'create');
  await createRelated(context, def, id);
  if (def.behaviours.afterCreate.length > 0) {
    hook.record = await trx(def.table).where('id', id).first();
    await runHooks(context, def, 'afterCreate', hook);
  }
  return id;
}

/** The related records a new record gets (`createWith` on a hasMany relation), each as a POST under it would create it. */
async function createRelated(context: WriteContext, def: ResourceDef, id: number): Promise<void> {
  for (const relation of createdWith(def))
    for (const values of relation.createWith!) await context.records(relation.resource).create({ ...values, [relation.foreignKey]: id }, { system: true });
}

const withCreated = new WeakMap<ResourceDef, RelationDef[]>();

function createdWith(def: ResourceDef): RelationDef[] {
  let found = withCreated.get(def);
  if (!found) withCreated.set(def, (found = [...def.relations.values()].filter((relation) => relation.createWith)));
  return found;
}

/** The columns the engine sets on a new record: the parent key, the scope, creator, timestamps and defaults. */
export function completeNewRecord(def: ResourceDef, values: Values, fixed: Values, user: AuthUser): void {
  Object.assign(values, fixed, ownScope(def));
  if (def.creator) values.creator_id = user.id;
  if (def.timestamps) values.created_at = values.updated_at = nowTimestamp();
  for (const field of def.fields.values()) {
    // A default read when written (defaultFrom, engine/values) falls back on the constant one itself.
    const unset = values[field.name] === undefined || (values[field.name] === null && field.nullMeans !== undefined);
    if (unset && field.default !== undefined && field.defaultFrom === undefined && field.stored) values[field.name] = field.default;
  }
}

/** A create that is one INSERT (no behaviours or invalidators, nothing written to other tables) needs no transaction. */
export function singleStatementCreate(def: ResourceDef, values: Values): boolean {
  if (def.invalidates.length > 0) return false;
  if (def.behaviours.beforeCreate.length > 0 || def.behaviours.beforeCreateMany.length > 0 || def.behaviours.afterCreate.length > 0) return false;
  if (
    createNeedsValueRules(def) ||
    sequenceFields(def).length > 0 ||
    appendFields(def).length > 0 ||
    def.tree ||
    createdWith(def).length > 0 ||
    templateFields(def).length > 0 ||
    formulaFields(def).length > 0
  )
    return false;
  return ![...def.fields.values()].some((field) => (field.type === 'ids' || field.type === 'records') && values[field.name] != null);
}

/**
 * Such a create, as one prepared INSERT; returns the new id, and the new row where the server
 * returns it with the insert (a resource with subquery fields is read back instead).
 */
export async function insertSingle(
  statements: Pick<Statements, 'insert' | 'insertReturning' | 'insertReturns'>,
  user: AuthUser,
  def: ResourceDef,
  values: Values,
  fixed: Values = {},
): Promise<{ id: number; row?: Row }> {
  completeNewRecord(def, values, fixed, user);
  const row = Object.entries(columns(def, values)).filter(([, value]) => value !== undefined);
  const sql = `INSERT INTO ${quote(def.table)} (${row.map(([column]) => quote(column)).join(', ')}) VALUES (${placeholders(row.length)})`;
  const params = row.map(([, value]) => value);
  if (statements.insertReturns && !hasSubqueryFields(def)) {
    const inserted = await statements.insertReturning(`${sql} RETURNING *`, params);
    return { id: Number(inserted.id), row: inserted };
  }
  return { id: await statements.insert(sql, params) };
}

const excluding = new WeakMap<ResourceDef, FieldDef[]>();

/** The fields that exclude another, worked out once per resource. */
function excludingFields(def: ResourceDef): FieldDef[] {
  let found = excluding.get(def);
  if (!found) excluding.set(def, (found = [...def.fields.values()].filter((field) => field.excludes)));
  return found;
}

const withSubqueries = new WeakMap<ResourceDef, boolean>();

/** Worked out once per resource, not per request. */
function hasSubqueryFields(def: ResourceDef): boolean {
  let has = withSubqueries.get(def);
  if (has === undefined) withSubqueries.set(def, (has = [...def.fields.values()].some((field) => field.subquery || field.aggregate)));
  return has;
}

/**
 * Updates the fields sent, and replaces the ids and nested records sent. `touch`: the row's
 * updated_at is written even when no column of it changes.
 */
export async function updateRecord(context: WriteContext, def: ResourceDef, id: number, values: Values, current: Values, { touch = false } = {}): Promise<void> {
  const { trx } = context;
  // A field given replaces the one it excludes (a payment term replaces a due date).
  for (const field of excludingFields(def)) {
    if (values[field.name] != null && values[field.excludes!] === undefined) values[field.excludes!] = null;
  }
  const hook = hookContext(context, def, values, current);
  await runBefore(context, def, 'update', [hook]);
  const changes = columns(def, values);
  context.changes.add(def.name, id, 'updated', changedFields(def, values, current));
  if (Object.keys(changes).length > 0 || (touch && def.timestamps)) {
    if (def.timestamps) changes.updated_at = nowTimestamp();
    await trx(def.table).where('id', id).update(changes);
    await syncRelated(context, def, [{ id, columns: changes, current }]);
    await moveSubtree(context, def, current, values);
    await writeTemplates(trx, def, id, { ...current, ...changes });
  }
  await writeCarried(context, def, id, values, 'update');
  if (def.behaviours.afterUpdate.length > 0) {
    hook.record = await trx(def.table).where('id', id).first();
    await runHooks(context, def, 'afterUpdate', hook);
  }
}

/**
 * The fields an update changes: a stored field whose value differs from the row's (compared as
 * the API would show them), and every ids or records field sent (they replace a whole set).
 */
function changedFields(def: ResourceDef, values: Values, current: Values | undefined): string[] {
  const changed: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    const field = def.fields.get(name);
    if (!field?.writable) continue;
    if (!field.stored || field.type === 'ids' || field.type === 'records' || !sameValue(value, current?.[name])) changed.push(name);
  }
  return changed;
}

function sameValue(sent: unknown, stored: unknown): boolean {
  if (sent === null || sent === undefined || stored === null || stored === undefined) return (sent ?? null) === (stored ?? null);
  if (typeof sent === 'boolean') return Number(sent) === Number(stored);
  if (typeof sent === 'number') return sent === Number(stored);
  if (typeof sent === 'object') return JSON.stringify(sent) === (typeof stored === 'string' ? stored : JSON.stringify(stored));
  return String(sent) === String(stored);
}

export function columns(def: ResourceDef, values: Values): Values {
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
    if (field.type === 'ids') await replaceIds(context, def, field, [{ id, ids: value as number[] }]);
    if (field.type === 'records') await syncRecords(context, def, field, id, value as NestedEntry[], mode);
  }
}

/** Replace semantics: the ids sent become the whole set; an empty list clears it. For many records at once. */
async function replaceIds(context: WriteContext, def: ResourceDef, field: FieldDef, sets: Array<{ id: number; ids: number[] }>): Promise<void> {
  if (sets.length === 0) return;
  const through = def.relations.get(field.relation!)!.through!;
  await context
    .trx(through.table)
    .whereIn(
      through.from,
      sets.map((set) => set.id),
    )
    .delete();
  const rows = sets.flatMap((set) => set.ids.map((other) => ({ [through.from]: set.id, [through.to]: other })));
  for (const chunk of chunks(rows, 2)) await context.trx(through.table).insert(chunk);
}

/**
 * Entries with an id update that child; the others are created; children left out are deleted.
 * The children's batch hooks see them all at once, and new children go in with multi-row
 * INSERTs, so a 50-line order takes as many statements as a 1-line one.
 */
async function syncRecords(context: WriteContext, def: ResourceDef, field: FieldDef, id: number, entries: NestedEntry[], mode: 'create' | 'update') {
  const relation = def.relations.get(field.relation!)!;
  const child = context.registry.get(relation.resource);
  const kept = entries.filter((entry) => entry.id !== undefined).map((entry) => entry.id!);
  if (mode === 'update') {
    const removed = () => {
      const query = context.trx(child.table).where(relation.foreignKey, id);
      // Only the owner's children of this kind: a document's product lines, not its tax lines.
      applyScope(query, child, context.registry, context.trx);
      if (kept.length > 0) query.whereNotIn('id', kept);
      return query;
    };
    // Their last state goes to the change feed; the rows are gone once it is written. On
    // MySQL/MariaDB the read locks them: a plain one shows the transaction's snapshot, which can
    // miss a child another write added since, and the delete would remove it unrecorded.
    const mysql = context.trx.client.config.client !== 'better-sqlite3';
    await context.changes.removing(context.trx, child.name, await (mysql ? removed().forUpdate() : removed()));
    await removed().delete();
  }
  try {
    const updates = entries.map((entry, index) => ({ entry, index })).filter(({ entry }) => entry.id !== undefined);
    const creates = entries.map((entry, index) => ({ entry, index })).filter(({ entry }) => entry.id === undefined);
    if (updates.length > 0) await updateChildren(context, child, updates);
    if (creates.length > 0) await insertChildren(context, child, creates, { [relation.foreignKey]: id }, kept, relation.foreignKey, id);
  } catch (error) {
    // A child's behaviour names its own fields; the client needs their place: lines.1.product_id.
    if (error instanceof ValidationError && error.entry !== undefined) throw new ValidationError(prefixed(error.errors, `${field.name}.${error.entry}.`));
    throw error;
  }
}

type Placed = Array<{ entry: NestedEntry; index: number }>;

async function updateChildren(context: WriteContext, child: ResourceDef, updates: Placed): Promise<void> {
  const current = new Map(
    (
      await context.trx(child.table).whereIn(
        'id',
        updates.map(({ entry }) => entry.id!),
      )
    ).map((row) => [Number(row.id), row]),
  );
  const hooks = updates.map(({ entry, index }) => ({ ...hookContext(context, child, entry.values, current.get(entry.id!)), index }));
  await runBefore(context, child, 'update', hooks);
  const written: Array<{ id: number; columns: Values; current?: Values }> = [];
  for (const { entry } of updates) {
    const changes = columns(child, entry.values);
    context.changes.add(child.name, entry.id!, 'updated', changedFields(child, entry.values, current.get(entry.id!)));
    if (Object.keys(changes).length > 0) {
      if (child.timestamps) changes.updated_at = nowTimestamp();
      await context.trx(child.table).where('id', entry.id!).update(changes);
      written.push({ id: entry.id!, columns: changes, current: current.get(entry.id!) });
    }
  }
  await syncRelated(context, child, written);
  await writeChildrenCarried(
    context,
    child,
    updates.map(({ entry }) => ({ id: entry.id!, values: entry.values })),
    'update',
  );
}

async function insertChildren(context: WriteContext, child: ResourceDef, creates: Placed, fixed: Values, kept: number[], foreignKey: string, ownerId: number): Promise<void> {
  const nestedRecords = [...child.fields.values()].some((field) => field.type === 'records');
  if (nestedRecords || child.behaviours.afterCreate.length > 0 || child.tree || createdWith(child).length > 0 || templateFields(child).length > 0) {
    // Children with records of their own or after-create rules are written one by one.
    for (const { entry, index } of creates) {
      try {
        await insertRecord(context, child, entry.values, fixed);
      } catch (error) {
        if (error instanceof ValidationError && error.entry === undefined) throw new ValidationError(error.errors, index);
        throw error;
      }
    }
    return;
  }
  for (const { entry } of creates) completeNewRecord(child, entry.values, fixed, context.user);
  await runBefore(
    context,
    child,
    'create',
    creates.map(({ entry, index }) => ({ ...hookContext(context, child, entry.values), index })),
  );
  // Rows with the same columns go in together; the new ids then follow the order they went in.
  const groups = new Map<string, { rows: Values[]; entries: NestedEntry[] }>();
  for (const { entry } of creates) {
    const row = Object.fromEntries(Object.entries(columns(child, entry.values)).filter(([, value]) => value !== undefined));
    const key = Object.keys(row).sort().join(',');
    if (!groups.has(key)) groups.set(key, { rows: [], entries: [] });
    groups.get(key)!.rows.push(row);
    groups.get(key)!.entries.push(entry);
  }
  for (const { rows } of groups.values()) for (const chunk of chunks(rows, Object.keys(rows[0]!).length)) await context.trx(child.table).insert(chunk);
  const order = [...groups.values()].flatMap((group) => group.entries);
  const query = context.trx(child.table).where(foreignKey, ownerId).orderBy('id');
  applyScope(query, child, context.registry, context.trx);
  if (kept.length > 0) query.whereNotIn('id', kept);
  const ids: number[] = (await query.pluck('id')).map(Number);
  context.changes.add(child.name, ids, 'created');
  await writeChildrenCarried(
    context,
    child,
    order.map((entry, position) => ({ id: ids[position]!, values: entry.values })),
    'create',
  );
}

/** The ids fields of many children: one delete and one insert per field for all of them. */
export async function writeChildrenCarried(context: WriteContext, child: ResourceDef, written: Array<{ id: number; values: Values }>, mode: 'create' | 'update'): Promise<void> {
  for (const field of child.fields.values()) {
    if (field.type !== 'ids') continue;
    const sets = written.filter(({ values }) => values[field.name] != null).map(({ id, values }) => ({ id, ids: values[field.name] as number[] }));
    if (mode === 'create') {
      const through = child.relations.get(field.relation!)!.through!;
      const rows = sets.flatMap((set) => set.ids.map((other) => ({ [through.from]: set.id, [through.to]: other })));
      for (const chunk of chunks(rows, 2)) await context.trx(through.table).insert(chunk);
    } else {
      await replaceIds(context, child, field, sets);
    }
  }
}

/** Rows in statements of at most ~5,000 bound values (SQLite allows 32,766; MySQL's packet is the other limit). */
function chunks<T>(rows: T[], columnsPerRow: number): T[][] {
  const size = Math.max(1, Math.floor(5000 / Math.max(1, columnsPerRow)));
  const result: T[][] = [];
  for (let i = 0; i < rows.length; i += size) result.push(rows.slice(i, i + size));
  return result;
}

function prefixed(errors: FieldErrors, prefix: string): FieldErrors {
  const label = (message: string, key: string) => message.replace(`The ${key.replace(/_/g, ' ')} `, `The ${prefix}${key.replace(/_/g, ' ')} `);
  return Object.fromEntries(Object.entries(errors).map(([key, messages]) => [`${prefix}${key}`, messages.map((message) => label(message, key))]));
}

export function hookContext(context: WriteContext, def: ResourceDef, values: Values, record?: Values): HookContext {
  return {
    trx: context.trx,
    def,
    user: context.user,
    values,
    record,
    params: context.params,
    changes: context.changes,
    records: context.records,
    get models() {
      return context.models;
    },
  };
}

export async function runHooks(context: WriteContext, def: ResourceDef, phase: keyof PhaseNames, hook: HookContext): Promise<void> {
  for (const name of def.behaviours[phase]) await context.behaviours.hooks[name]!(hook);
}

/** The before-create or before-update rules of records written together: batch hooks once, single hooks per record. */
export async function runBefore(context: WriteContext, def: ResourceDef, mode: 'create' | 'update', hooks: HookContext[]): Promise<void> {
  if (mode === 'update') refuseLockedUpdates(def, hooks);
  await applyValueRules(context, def, mode, hooks);
  if (mode === 'create') {
    await numberNewRecords(context.trx, context.registry, def, hooks);
    await appendLast(context.trx, def, hooks);
  }
  await placeInTree(context.trx, def, hooks);
  applyFormulas(def, mode, hooks);
  const batch = mode === 'create' ? def.behaviours.beforeCreateMany : def.behaviours.beforeUpdateMany;
  for (const name of batch) await context.behaviours.batches[name]!(hooks);
  for (const hook of hooks) {
    try {
      await runHooks(context, def, mode === 'create' ? 'beforeCreate' : 'beforeUpdate', hook);
    } catch (error) {
      if (error instanceof ValidationError && error.entry === undefined && hook.index !== undefined) throw new ValidationError(error.errors, hook.index);
      throw error;
    }
  }
}
