// How a behaviour writes another resource's records: through the same path as a client's request
// (write-record.ts), in the request's transaction and as its user. The body is validated by the
// target's definition (reads inside the transaction: it sees what the unit wrote so far), then
// insertRecord/updateRecord apply the target's locks, defaults, value rules, sequences, hooks,
// nested records, timestamps and creator, and add the change to the unit's feed; the set-based
// updates keep other records' copies (`related`) of the columns they set in step. A system write
// may also set fields a client may not send (readOnly), still checked for type and references.
import type { RecordWriter, Records, WriteOptions } from '../behaviours/types.ts';
import { MANAGED_FIELDS } from '../definition/normalize.ts';
import { Registry } from '../definition/registry.ts';
import { applyScope } from '../definition/scope.ts';
import { splitPath } from '../definition/value-rules.ts';
import type { FieldDef, ResourceDef } from '../definition/types.ts';
import { nowTimestamp } from '../serialize/value-formats.ts';
import type { Statements } from '../sql/statements.ts';
import { transactionStatements } from '../sql/transaction-statements.ts';
import { updateEach } from '../sql/update-each.ts';
import { compileBodyValidator, type NestedEntry, type Values } from '../validation/body-validator.ts';
import { insertRows } from '../sql/insert-rows.ts';
import { syncRelated } from '../values/index.ts';
import { ValidationError } from '../errors/http-errors.ts';
import { columns, completeNewRecord, hookContext, insertRecord, runBefore, runHooks, updateRecord, writeChildrenCarried, type WriteContext } from './write-record.ts';

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
  return {
    async create(body, options = {}) {
      const values = await validated(context, def, body, { mode: 'create' }, options);
      return insertRecord(context, options.system ? keptCopies(def, body) : def, values);
    },
    async createMany(bodies, options = {}) {
      if (bodies.length === 0) return [];
      const all = await validatedMany(context, def, bodies, options);
      if (oneByOne(def, all)) {
        const ids: number[] = [];
        for (const values of all) ids.push(await insertRecord(context, def, values));
        return ids;
      }
      for (const values of all) completeNewRecord(def, values, {}, context.user);
      await runBefore(
        context,
        def,
        'create',
        all.map((values, index) => ({ ...hookContext(context, def, values), index })),
      );
      const rows = all.map((values) => Object.fromEntries(Object.entries(columns(def, values)).filter(([, value]) => value !== undefined)));
      const ids = await insertRows(trx, def.table, rows);
      context.changes.add(def.name, ids, 'created');
      await writeChildrenCarried(
        context,
        def,
        ids.map((id, index) => ({ id, values: all[index]! })),
        'create',
      );
      return ids;
    },
    async update(id, patch, options = {}) {
      const current = await trx(def.table).where('id', id).first();
      if (!current) throw new Error(`${def.name} has no record ${id} to update.`);
      const values = await validated(context, def, patch, { mode: 'update', id }, options);
      await updateRecord(context, def, id, values, current);
    },
    async updateMany(where, values, kind = 'updated') {
      let ids: number[];
      if (typeof where === 'function') {
        const query = trx(def.table);
        applyScope(query, def, context.registry, trx);
        where(query);
        ids = (await query.pluck(`${def.table}.id`)).map(Number);
      } else {
        ids = where.map(Number);
      }
      if (ids.length === 0) return ids;
      const row: Values = { ...values };
      if (def.timestamps) row.updated_at = nowTimestamp();
      await trx(def.table).whereIn('id', ids).update(row);
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
      const stamp = def.timestamps ? { updated_at: nowTimestamp() } : {};
      await updateEach(
        trx,
        def.table,
        rows.map(({ id, values }) => ({ id, values: { ...values, ...stamp } })),
      );
      for (const { id, values } of rows) context.changes.add(def.name, id, kind, Object.keys(values));
      await syncRelated(
        context,
        def,
        rows.map(({ id, values }) => ({ id, columns: values })),
      );
    },
    async forceDeleteMany(where, options = {}) {
      const query = () => {
        const selected = trx(def.table);
        applyScope(selected, def, context.registry, trx);
        where(selected);
        return selected;
      };
      // Locked on MySQL/MariaDB, as a nested record's removal reads them (write-record.ts).
      const mysql = trx.client.config.client !== 'better-sqlite3';
      const rows = await (mysql ? query().forUpdate() : query()).select(`${def.table}.*`);
      if (rows.length === 0) return [];
      if (!options.system) for (const record of rows) await runHooks(context, def, 'beforeDelete', hookContext(context, def, {}, record));
      await context.changes.removing(trx, def.name, rows, 'force_deleted');
      const ids = rows.map((row) => Number(row.id));
      await trx(def.table).whereIn('id', ids).delete();
      return ids;
    },
    changed(ids, kind = 'updated', fields) {
      if (ids.length > 0) context.changes.add(def.name, ids, kind, fields);
    },
  };
}

/**
 * The body as the target's validator leaves it; a ValidationError (422) names the target's
 * fields. A system write's keys that are no field of the definition are columns it does not show
 * (an invoice's marketing campaign, kept for the original's screens): written as given, the
 * database refusing one that is no column.
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

/** Records with nested records, after-create rules or a place in a tree are written one by one. */
function oneByOne(def: ResourceDef, all: readonly Values[]): boolean {
  if (def.behaviours.afterCreate.length > 0 || def.tree) return true;
  return [...def.fields.values()].some((field) => field.type === 'records' && all.some((values) => values[field.name] != null));
}

/** Puts back the undeclared columns of a system body (and of its nested entries) that validation left out. */
function restoreColumns(registry: Registry, def: ResourceDef, body: Values, values: Values, at = ''): void {
  for (const [key, value] of Object.entries(body)) {
    if (at && key === 'id') continue; // a nested entry's: the child it updates
    const field = def.fields.get(key);
    if (!field) {
      values[key] = value;
      continue;
    }
    if (!field.writable) throw new Error(`${def.name}: ${at}${key} is the engine's to write.`);
    if (field.type !== 'records' || !Array.isArray(value)) continue;
    const child = registry.get(def.relations.get(field.relation!)!.resource);
    const entries = values[key] as NestedEntry[];
    value.forEach((entry, index) => {
      restoreColumns(registry, child, entry as Values, entries[index]!.values, `${at}${key}.${index}.`);
    });
  }
}

const withKeptCopies = new WeakMap<ResourceDef, Map<string, ResourceDef>>();

/**
 * The definition a system create is written by: a copy (`related`) its body gives is kept when the
 * body names no record to copy it from (a move of no operation: an inventory adjustment's
 * reference and company), where the copy rule would write null over it.
 */
function keptCopies(def: ResourceDef, body: Values): ResourceDef {
  const kept = [...def.fields.values()].filter((field) => field.related && body[field.name] !== undefined && body[splitPath(def, field.related).via!] == null);
  if (kept.length === 0) return def;
  const key = kept.map((field) => field.name).join(',');
  let byKey = withKeptCopies.get(def);
  if (!byKey) withKeptCopies.set(def, (byKey = new Map()));
  let found = byKey.get(key);
  if (!found) {
    const fields = new Map([...def.fields].map(([name, field]) => [name, kept.includes(field) ? { ...field, related: undefined } : field]));
    byKey.set(key, (found = { ...def, fields }));
  }
  return found;
}

const lifted = new WeakMap<ResourceDef, ResourceDef>();

/**
 * The definition as a system write sees it: its readOnly columns writable, not required, and
 * checked against the record their belongsTo relation names. The engine's own columns (id,
 * timestamps, creator) stay the engine's.
 */
function systemDef(def: ResourceDef): ResourceDef {
  let found = lifted.get(def);
  if (found) return found;
  const fields = new Map<string, FieldDef>();
  for (const [name, field] of def.fields) {
    if (field.writable || !field.stored || MANAGED_FIELDS.has(name)) {
      fields.set(name, field);
      continue;
    }
    const relation = [...def.relations.values()].find((candidate) => candidate.kind === 'belongsTo' && candidate.foreignKey === name);
    fields.set(name, { ...field, writable: true, required: false, nullable: true, references: field.references ?? relation?.resource });
  }
  lifted.set(def, (found = { ...def, fields }));
  return found;
}

const systemRegistries = new WeakMap<Registry, Registry>();

/** The registry whose nested resources are seen as a system write sees them (a document's lines). */
function systemRegistry(registry: Registry): Registry {
  let found = systemRegistries.get(registry);
  if (!found) systemRegistries.set(registry, (found = new Registry(new Map([...registry.resources].map(([name, def]) => [name, systemDef(def)])))));
  return found;
}
