// What a record carries besides its columns: the ids of a many-to-many relation (`ids` fields,
// replacing the whole set) and its nested records (`records` fields: an entry with the id of one
// of the owner's children updates it, one without is created, and on update the children left
// out are deleted). Children are written through the pipeline, all of one owner's at once, so a
// 50-line order takes as many statements as a 1-line one.
import { applyScope } from '../definition/scope.ts';
import type { FieldDef, ResourceDef } from '../definition/types.ts';
import { ValidationError, type FieldErrors } from '../errors/http-errors.ts';
import { lockedForUpdate } from '../sql/dialect.ts';
import type { NestedEntry, Values } from '../validation/body-validator.ts';
import type { Pipeline, WriteContext, Written } from '../keys/types.ts';
import { fieldsWhere } from '../definition/per-definition.ts';

/** The resource's `ids` and `records` fields, worked out once. */
export const carriedFields = fieldsWhere((field) => field.type === 'ids' || field.type === 'records');

/** Whether any record of a write carries nested records (each owner is then written alone, before its children). */
export function carriesRecords(def: ResourceDef, entries: readonly Values[]): boolean {
  return carriedFields(def).some((field) => field.type === 'records' && entries.some((values) => values[field.name] != null));
}

/** The ids and nested records the written records carry: one delete and one insert per ids field for all of them. */
export async function writeCarried(context: WriteContext, def: ResourceDef, written: Written[], mode: 'create' | 'update', pipeline: Pipeline): Promise<void> {
  for (const field of carriedFields(def)) {
    const sent = written.filter(({ hook }) => hook.values[field.name] != null);
    if (sent.length === 0) continue;
    if (field.type === 'ids') {
      await replaceIds(
        context,
        def,
        field,
        sent.map(({ id, hook }) => ({ id, ids: hook.values[field.name] as number[] })),
        mode,
      );
    } else {
      for (const { id, hook } of sent) await syncRecords(context, def, field, id, hook.values[field.name] as NestedEntry[], mode, pipeline);
    }
  }
}

/** Replace semantics: the ids sent become the whole set; an empty list clears it. */
async function replaceIds(context: WriteContext, def: ResourceDef, field: FieldDef, sets: Array<{ id: number; ids: number[] }>, mode: 'create' | 'update'): Promise<void> {
  const through = def.relations.get(field.relation!)!.through!;
  if (mode === 'update')
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

async function syncRecords(context: WriteContext, def: ResourceDef, field: FieldDef, id: number, entries: NestedEntry[], mode: 'create' | 'update', pipeline: Pipeline) {
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
    // Their last state goes to the change feed; the rows are gone once it is written (locked on
    // MySQL/MariaDB, so that a child another write added since is not deleted unrecorded).
    await context.changes.removing(context.trx, child.name, await lockedForUpdate(context.trx, removed()));
    await removed().delete();
  }
  try {
    const updates = entries.map((entry, index) => ({ entry, index })).filter(({ entry }) => entry.id !== undefined);
    if (updates.length > 0) {
      const current = new Map(
        (
          await context.trx(child.table).whereIn(
            'id',
            updates.map(({ entry }) => entry.id!),
          )
        ).map((row) => [Number(row.id), row]),
      );
      await placedAmong(updates, () =>
        pipeline.update(
          context,
          child,
          updates.map(({ entry }) => ({ id: entry.id!, values: entry.values, current: current.get(entry.id!)! })),
          { placed: true },
        ),
      );
    }
    const creates = entries.map((entry, index) => ({ entry, index })).filter(({ entry }) => entry.id === undefined);
    if (creates.length > 0) {
      await placedAmong(creates, () =>
        pipeline.create(
          context,
          child,
          creates.map(({ entry }) => entry.values),
          { fixed: { [relation.foreignKey]: id }, placed: true },
        ),
      );
    }
  } catch (error) {
    // A child's rule names its own fields; the client needs their place: lines.1.product_id.
    if (error instanceof ValidationError && error.entry !== undefined) throw new ValidationError(prefixed(error.errors, `${field.name}.${error.entry}.`));
    throw error;
  }
}

/** The pipeline names a refused entry's place among those it was given; the client sent them among all. */
async function placedAmong(subset: ReadonlyArray<{ index: number }>, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ValidationError && error.entry !== undefined) throw new ValidationError(error.errors, subset[error.entry]?.index ?? error.entry);
    throw error;
  }
}

/** Rows in statements of at most ~5,000 bound values (SQLite allows 32,766; MySQL's packet is the other limit). */
export function chunks<T>(rows: T[], columnsPerRow: number): T[][] {
  const size = Math.max(1, Math.floor(5000 / Math.max(1, columnsPerRow)));
  const result: T[][] = [];
  for (let i = 0; i < rows.length; i += size) result.push(rows.slice(i, i + size));
  return result;
}

function prefixed(errors: FieldErrors, prefix: string): FieldErrors {
  const label = (message: string, key: string) => message.replace(`The ${key.replace(/_/g, ' ')} `, `The ${prefix}${key.replace(/_/g, ' ')} `);
  return Object.fromEntries(Object.entries(errors).map(([key, messages]) => [`${prefix}${key}`, messages.map((message) => label(message, key))]));
}
