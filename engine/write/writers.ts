// How a behaviour writes another resource's records: through the same pipeline as a client's
// request (pipeline.ts), in the unit's transaction and as its user. The body is validated by the
// target's definition (reads inside the transaction: it sees what the unit wrote so far), then
// the pipeline runs the target's steps and adds the change to the unit's feed. A system write may
// also set fields a client may not send (readOnly), still checked for type and references.
import type { RecordWriter, Records, WriteOptions } from '../behaviours/types.ts';
import { applyScope } from '../definition/scope.ts';
import type { ResourceDef } from '../definition/types.ts';
import { ValidationError } from '../errors/http-errors.ts';
import { nowTimestamp } from '../serialize/value-formats.ts';
import { lockedForUpdate } from '../sql/dialect.ts';
import type { Statements } from '../sql/statements.ts';
import { transactionStatements } from '../sql/transaction-statements.ts';
import { updateEach } from '../sql/update-each.ts';
import { compileBodyValidator, type Values } from '../validation/body-validator.ts';
import { syncRelated } from '../keys/values/index.ts';
import { SEARCH_COLUMN } from '../definition/search-words.ts';
import { addWordsToRows, changesWords } from '../keys/search.ts';
import type { WriteContext } from '../keys/types.ts';
import { createRecords, removeRecords, updateRecords } from './pipeline.ts';
import { writePlan } from './plan.ts';
import { keptCopies, restoreColumns, systemDef, systemRegistry } from './system-def.ts';

export function recordWriters(context: WriteContext): Records {
  const writers = new Map<string, RecordWriter>();
  return (resource) => {
    let writer = writers.get(resource);
    if (!writer) writers.set(resource, (writer = recordWriter(context, context.registry.get(resource))));
    return writer;
  };
}

function recordWriter(context: WriteContext, def: ResourceDef): RecordWriter {
  const { trx } = context;
  /** The rows `where` selects among the resource's (its scope applied), locked on MySQL/MariaDB. */
  const selected = (where: Parameters<RecordWriter['forceDeleteMany']>[0]) => {
    const query = trx(def.table);
    applyScope(query, def, context.registry, trx);
    where(query);
    return query;
  };
  return {
    async create(body, options = {}) {
      const values = await validated(context, def, body, { mode: 'create' }, options);
      const [id] = await createRecords(context, options.system ? keptCopies(def, body) : def, [values]);
      return id!;
    },
    async createMany(bodies, options = {}) {
      if (bodies.length === 0) return [];
      const all = await validatedMany(context, def, bodies, options);
      const defs = bodies.map((body) => (options.system ? keptCopies(def, body) : def));
      if (defs.every((one) => one === defs[0])) return createRecords(context, defs[0]!, all, { placed: true });
      // Bodies that keep different copies are written by different views of the definition.
      const ids: number[] = [];
      for (const [index, values] of all.entries()) {
        try {
          ids.push(...(await createRecords(context, defs[index]!, [values])));
        } catch (error) {
          if (error instanceof ValidationError && error.entry === undefined) throw new ValidationError(error.errors, index);
          throw error;
        }
      }
      return ids;
    },
    async update(id, patch, options = {}) {
      const current = await trx(def.table).where('id', id).first();
      if (!current) throw new Error(`${def.name} has no record ${id} to update.`);
      const values = await validated(context, def, patch, { mode: 'update', id }, options);
      await updateRecords(context, def, [{ id, values, current }]);
    },
    async updateMany(where, values, kind = 'updated') {
      refuseFollowed(context, def, values);
      const ids = typeof where === 'function' ? (await selected(where).pluck(`${def.table}.id`)).map(Number) : where.map(Number);
      if (ids.length === 0) return ids;
      const row: Values = { ...values };
      if (def.timestamps) row.updated_at = nowTimestamp();
      await trx(def.table).whereIn('id', ids).update(row);
      if (changesWords(def, values)) {
        const words = ids.map((id) => ({ id, values: { ...values } }));
        await addWordsToRows(trx, def, words);
        await updateEach(
          trx,
          def.table,
          words.map(({ id, values: changed }) => ({ id, values: { [SEARCH_COLUMN]: changed[SEARCH_COLUMN] } })),
        );
      }
      context.changes.add(def.name, ids, kind, Object.keys(values));
      await syncRelated(
        context,
        def,
        ids.map((id) => ({ id, columns: row })),
      );
      return ids;
    },
    async updateEach(rows, kind = 'updated') {
      if (rows.length === 0) return;
      refuseFollowed(context, def, rows[0]!.values);
      const stamp = def.timestamps ? { updated_at: nowTimestamp() } : {};
      const written = rows.map(({ id, values }) => ({ id, values: { ...values, ...stamp } }));
      await addWordsToRows(trx, def, written);
      await updateEach(trx, def.table, written);
      for (const { id, values } of rows) context.changes.add(def.name, id, kind, Object.keys(values));
      await syncRelated(
        context,
        def,
        rows.map(({ id, values }) => ({ id, columns: values })),
      );
    },
    async forceDeleteMany(where, options = {}) {
      const rows = await lockedForUpdate(trx, selected(where)).select(`${def.table}.*`);
      return removeRecords(context, def, rows, { hard: true, kind: 'force_deleted', system: options.system });
    },
    changed(ids, kind = 'updated', fields) {
      if (ids.length > 0) context.changes.add(def.name, ids, kind, fields);
    },
  };
}

/**
 * A set-based write sets values its caller computed, without the update's rules (see RecordWriter):
 * a field another rule follows (a formula's operand, a tree's parent, a copy's reference) would
 * leave that rule's stored value stale, and is the update's to write.
 */
function refuseFollowed(context: WriteContext, def: ResourceDef, values: Values): void {
  const followed = writePlan(def, context.registry).followed;
  const refused = Object.keys(values).filter((name) => followed.has(name));
  if (refused.length > 0) throw new Error(`${def.name}: ${refused.join(', ')} cannot be set by a set-based write: rules follow it; write it with update().`);
}

/**
 * The body as the target's validator leaves it; a ValidationError (422) names the target's
 * fields. A system write's keys that are no field of the definition are columns it does not show,
 * written as given.
 */
async function validated(context: WriteContext, def: ResourceDef, body: Values, at: { mode: 'create' | 'update'; id?: number }, options: WriteOptions): Promise<Values> {
  const statements = transactionStatements(context.trx, false) as unknown as Statements; // its reads see what this unit wrote so far
  if (!options.system) return compileBodyValidator(def, context.registry, context.bounds).validate(body, statements, at);
  const registry = systemRegistry(context.registry);
  const target = systemDef(def);
  const values = await compileBodyValidator(target, registry, context.bounds).validate(body, statements, at);
  restoreColumns(registry, target, body, values);
  return values;
}

/** Many create bodies validated together (one query per reference for all); a refused one names its place. */
async function validatedMany(context: WriteContext, def: ResourceDef, bodies: ReadonlyArray<Values>, options: WriteOptions): Promise<Values[]> {
  const statements = transactionStatements(context.trx, false) as unknown as Statements;
  const registry = options.system ? systemRegistry(context.registry) : context.registry;
  const target = options.system ? systemDef(def) : def;
  const checked = await compileBodyValidator(target, registry, context.bounds).validateMany(
    bodies.map((body) => ({ body, mode: 'create' as const })),
    statements,
  );
  return checked.map(({ values, errors }, index) => {
    if (Object.keys(errors).length > 0) throw new ValidationError(errors, index);
    if (options.system) restoreColumns(registry, target, bodies[index]!, values);
    return values;
  });
}
