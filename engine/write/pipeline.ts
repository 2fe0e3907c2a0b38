// The one write pipeline: every writer of the engine (the create, update and delete handlers,
// actions, imports, the behaviours' record writers, nested records) creates, updates and removes
// records through these three functions, which run the steps of the resource's plan (plan.ts) in
// the order of the step list (steps.ts) around the statements that write the rows.
import type { HookContext } from '../behaviours/types.ts';
import { ownScope } from '../definition/scope.ts';
import type { FieldDef, ResourceDef } from '../definition/types.ts';
import { ValidationError } from '../errors/http-errors.ts';
import { nowTimestamp } from '../serialize/value-formats.ts';
import { insertRows } from '../sql/insert-rows.ts';
import type { Values } from '../validation/body-validator.ts';
import { hookContext } from './context.ts';
import { writePlan } from './plan.ts';
import type { CreateOptions, Pipeline, RemoveOptions, UpdateItem, UpdateOptions, WriteContext, WriteStep, Written } from '../keys/types.ts';

/**
 * Creates records (each with what it carries); returns their ids in the entries' order. Records
 * created together are prepared together (a batch hook sees them all) and go in with multi-row
 * INSERTs, unless a step of the plan needs each written before the next (oneByOne).
 */
export async function createRecords(context: WriteContext, def: ResourceDef, entries: Values[], options: CreateOptions = {}): Promise<number[]> {
  if (entries.length === 0) return [];
  const plan = writePlan(def, context.registry);
  if (entries.length === 1 || !plan.oneByOne(entries)) return createTogether(context, def, entries, 0, options);
  const ids: number[] = [];
  for (const [position, values] of entries.entries()) ids.push(...(await createTogether(context, def, [values], position, options)));
  return ids;
}

async function createTogether(context: WriteContext, def: ResourceDef, entries: Values[], first: number, { fixed = {}, placed = false }: CreateOptions): Promise<number[]> {
  const plan = writePlan(def, context.registry);
  try {
    const hooks = entries.map((values, position) => {
      completeNewRecord(context, def, values, fixed);
      return hookContext(context, def, values, undefined, placed ? first + position : undefined);
    });
    await runBefore(plan.create, context, def, hooks, 'create');
    const rows = hooks.map(({ values }) => {
      plan.complete(values);
      return storedColumns(def, values);
    });
    const ids = rows.length === 1 ? [Number((await context.trx(def.table).insert(rows[0]!))[0])] : await insertRows(context.trx, def.table, rows);
    context.changes.add(def.name, ids, 'created');
    const written = ids.map((id, position) => ({ id, hook: hooks[position]! }));
    for (const step of plan.create) await step.afterInsert?.(context, def, written, pipeline);
    return ids;
  } catch (error) {
    // Written alone, a record's refusal without a place is its own: the entry's place.
    if (placed && entries.length === 1 && error instanceof ValidationError && error.entry === undefined) throw new ValidationError(error.errors, first);
    throw error;
  }
}

/** Updates the fields sent of each record, and replaces the ids and nested records sent. */
export async function updateRecords(context: WriteContext, def: ResourceDef, items: UpdateItem[], { touch = false, placed = false }: UpdateOptions = {}): Promise<void> {
  if (items.length === 0) return;
  const plan = writePlan(def, context.registry);
  const hooks = items.map(({ values, current }, position) => hookContext(context, def, values, current, placed ? position : undefined));
  await runBefore(plan.update, context, def, hooks, 'update');
  const written: Written[] = [];
  for (const [position, { id, values, current }] of items.entries()) {
    const columns = storedColumns(def, values);
    context.changes.add(def.name, id, 'updated', changedFields(def, values, current));
    if (Object.keys(columns).length > 0 || (touch && def.timestamps)) {
      if (def.timestamps) columns.updated_at = nowTimestamp();
      await context.trx(def.table).where('id', id).update(columns);
    }
    written.push({ id, hook: hooks[position]!, columns, current });
  }
  for (const step of plan.update) await step.afterUpdate?.(context, def, written, pipeline);
}

/**
 * Removes stored rows of a resource, to the trash or for good: the plan's removal steps (locks,
 * beforeDelete behaviours, `onDelete: restrict`), then the change feed (a removal for good with
 * the rows' last state and what the database changes along with them), then one statement.
 */
export async function removeRecords(context: WriteContext, def: ResourceDef, rows: Values[], options: RemoveOptions): Promise<number[]> {
  if (rows.length === 0) return [];
  for (const step of writePlan(def, context.registry).remove) await step.beforeRemove!(context, def, rows, options);
  const ids = rows.map((row) => Number(row.id));
  if (!options.hard) {
    const now = nowTimestamp();
    await context
      .trx(def.table)
      .whereIn('id', ids)
      .update(def.timestamps ? { deleted_at: now, updated_at: now } : { deleted_at: now });
    context.changes.add(def.name, ids, options.kind);
    return ids;
  }
  await context.changes.removing(context.trx, def.name, rows, options.kind);
  await context.trx(def.table).whereIn('id', ids).delete();
  return ids;
}

/** The pipeline as the steps that write other records see it. */
const pipeline: Pipeline = { create: createRecords, update: updateRecords };

async function runBefore(steps: readonly WriteStep[], context: WriteContext, def: ResourceDef, hooks: HookContext[], mode: 'create' | 'update'): Promise<void> {
  for (const step of steps) await (mode === 'create' ? step.beforeCreate : step.beforeUpdate)?.(context, def, hooks, mode);
}

/** The columns the engine sets on a new record: the parent key, the scope, creator, timestamps and constant defaults. */
export function completeNewRecord(context: Pick<WriteContext, 'user'>, def: ResourceDef, values: Values, fixed: Values = {}): void {
  Object.assign(values, fixed, ownScope(def));
  if (def.creator) values.creator_id = context.user.id;
  if (def.timestamps) values.created_at = values.updated_at = nowTimestamp();
  for (const field of def.fields.values()) {
    // A default read when written (defaultFrom, engine/keys/values) falls back on the constant one itself.
    const unset = values[field.name] === undefined || (values[field.name] === null && field.nullMeans !== undefined);
    if (unset && field.default !== undefined && field.defaultFrom === undefined && field.stored) values[field.name] = field.default;
  }
}

/** The values that are columns of the row: stored fields, and the undeclared keys behaviours and the engine set. */
export function storedColumns(def: ResourceDef, values: Values): Values {
  const stored: Values = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const field = def.fields.get(name);
    if (!field || field.stored) stored[name] = value;
  }
  return stored;
}

/**
 * The fields an update changes: a stored field whose value differs from the row's (compared as
 * the API would show them), and every ids or records field sent (they replace a whole set).
 */
function changedFields(def: ResourceDef, values: Values, current: Values | undefined): string[] {
  const changed: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    const field: FieldDef | undefined = def.fields.get(name);
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
