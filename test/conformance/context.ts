// What every capability check of one resource on one database needs, prepared in `before`.
import type { Registry } from '../../engine/definition/registry.ts';
import type { ScopeValue } from '../../engine/definition/format.ts';
import { applyScope, ownScope, scopeTest } from '../../engine/definition/scope.ts';
import type { FieldDef, ResourceDef } from '../../engine/definition/types.ts';
import { isOwnValue } from '../../engine/definition/value-rules.ts';
import { routeTable } from '../../engine/definition/route-table.ts';
import { ADMIN, API, sharedApp, type TestApp } from '../helpers/app.ts';
import type { Client } from '../helpers/http.ts';
import type { Target } from '../helpers/targets.ts';
import { sampleValue, validPayload, type PayloadContext } from './payloads.ts';

export interface ResourceContext {
  def: ResourceDef;
  registry: Registry;
  target: Target;
  app: TestApp;
  client: Client;
  token: string;
  parentId?: number;
  /** The list URL, with the parent placeholder filled. */
  listPath: string;
  payload: PayloadContext;
  /** Records this suite created through the API (response data). */
  created: Array<Record<string, any>>;
  /** Creates a record of another (top-level) resource through its API, what it points at found or made likewise; its id. */
  createRecord(name: string): Promise<number | undefined>;
}

export function recordPath(context: ResourceContext, id: number | string): string {
  return `${context.listPath}/${id}`;
}

/** `app`: the installation to write in (default: the run's shared one for the target). */
export async function prepareContext(def: ResourceDef, registry: Registry, target: Target, app?: Awaited<ReturnType<typeof sharedApp>>): Promise<ResourceContext> {
  app ??= await sharedApp(target);
  const knex = app.knex;
  const adminCompanyId = (await knex('users').where('email', ADMIN.email).first('default_company_id'))?.default_company_id;
  const adminCompany = adminCompanyId == null ? undefined : Number(adminCompanyId);
  // The first row a reference may point at: live, inside the target's own scope, and matching the
  // referencing resource's scope through that field (a receipt's operation type is incoming).
  // `company`: a record of that company or of none (what the administrator writes is of their
  // default company, and a reference with checkCompany refuses another's; other files of the run
  // may have made records of other companies first).
  const firstLiveId = async (name: string, conditions: Record<string, ScopeValue> = {}, company?: number): Promise<number | undefined> => {
    const other = registry.get(name);
    const query = knex(other.table).orderBy('id').first('id');
    if (company !== undefined && other.fields.get('company_id')?.stored)
      query.where((ofCompany) => ofCompany.whereNull(`${other.table}.company_id`).orWhere(`${other.table}.company_id`, company));
    if (other.softDelete) query.whereNull('deleted_at');
    applyScope(query, other, registry, knex);
    for (const [column, value] of Object.entries(conditions)) {
      const { operator, operand } = scopeTest(value);
      query.where(column, operator, operand);
    }
    const row = await query;
    return row ? Number(row.id) : undefined;
  };
  const scopeThrough = (owner: ResourceDef, fieldName: string) =>
    Object.fromEntries(
      Object.entries(owner.scope)
        .map(([key, value]) => [key.split('.'), value] as const)
        .filter(([[relation, column]]) => column && owner.relations.get(relation!)?.foreignKey === fieldName)
        .map(([[, column], value]) => [column, value]),
    );

  // Ids for every resource a body of `owner` may point at (references, ids fields, and those of
  // nested records), added to `ids`: the first live row, else one created through its API. Returns
  // a resource that has no row to point at: any one when `strict`, else only a required one.
  // A reference whose domain reads the record's own values (a task's milestone is one of the task's
  // project) is chosen once those values are: after the other references, matching them.
  const ownConditions = async (owner: ResourceDef, field: FieldDef, ids: Map<string, number>): Promise<Record<string, ScopeValue>> => {
    const conditions: Record<string, ScopeValue> = {};
    for (const [column, condition] of Object.entries(field.referencesWhere ?? {})) {
      if (!isOwnValue(condition)) {
        conditions[column] = condition;
        continue;
      }
      const [first, through] = condition.field.split('.') as [string, string | undefined];
      const relation = through ? owner.relations.get(first) : undefined;
      const resource = relation ? relation.resource : owner.fields.get(first)?.references;
      const id = resource ? ids.get(resource) : undefined;
      const value = id === undefined ? undefined : through ? (await knex(registry.get(resource!).table).where('id', id).first(through))?.[through] : id;
      if (value !== undefined && value !== null) conditions[column] = value;
    }
    return conditions;
  };
  const collect = async (owner: ResourceDef, ids: Map<string, number>, { strict, depth }: { strict: boolean; depth: number }): Promise<string | undefined> => {
    const judgedOnOwnValues = (field: FieldDef) => Object.values(field.referencesWhere ?? {}).some(isOwnValue);
    const fields = [...owner.fields.values()];
    for (const field of [...fields.filter((f) => !judgedOnOwnValues(f)), ...fields.filter(judgedOnOwnValues)]) {
      if (!field.writable) continue;
      const relation = field.relation ? owner.relations.get(field.relation) : undefined;
      if (field.type === 'records' && relation) {
        const missing = await collect(registry.get(relation.resource), ids, { strict, depth });
        if (missing) return missing;
      }
      const name = field.references ?? (field.type === 'ids' ? relation?.resource : undefined);
      if (!name || ids.has(name)) continue;
      const conditions = { ...scopeThrough(owner, field.name), ...(await ownConditions(owner, field, ids)) };
      const id = (await firstLiveId(name, conditions, adminCompany)) ?? (await createOne(name, depth + 1, conditions));
      if (id !== undefined) ids.set(name, id);
      else if (strict || field.required) return name;
    }
    return undefined;
  };
  // A referenced resource without rows yet gets one through its own API (e.g. a product tag); what
  // that one must point at is found or created the same way, a few levels deep (a fiscal position
  // for a customer needs a company, and accounts and taxes for its mappings).
  // `conditions`: what the record must have to be pointed at (a lot of the scrap's product), its plain values sent.
  const createOne = async (name: string, depth = 0, conditions: Record<string, ScopeValue> = {}): Promise<number | undefined> => {
    const other = registry.get(name);
    if (!other.operations.has('create') || other.parent || depth > 3) return undefined;
    const ids = new Map<string, number>();
    if (await collect(other, ids, { strict: false, depth })) return undefined;
    const payload = validPayload(other, { referenceIds: ids, registry, tag: 'ref' }, 0);
    for (const [column, value] of Object.entries(conditions)) if (typeof value !== 'object' && other.fields.get(column)?.writable) payload[column] = value;
    const response = await app.client.post(`${API}${other.path}`, { token: app.token, body: payload });
    return response.status === 201 ? response.body.data.id : undefined;
  };
  // Records that no route creates (what a worker writes: webhook deliveries and their attempts)
  // are written straight to their table from their definition, parents first, so that the list
  // and show checks have rows to read.
  // Unique to this resource's run: rows written straight by other resources' runs share tables (documents).
  const directTag = `direct-${Math.random().toString(36).slice(2, 8)}`;
  let directCount = 0;
  const insertDirect = async (name: string, parentRowId?: number): Promise<number> => {
    const other = registry.get(name);
    const row: Record<string, unknown> = {};
    // Each row its own values: unique columns (a number, a name) differ.
    const n = directCount++;
    for (const field of other.fields.values()) {
      if (!field.stored || field.name === 'id') continue;
      // A live row: a soft-deleting resource's deleted_at stays null.
      if (other.softDelete && field.name === 'deleted_at') continue;
      // A foreign key points at a live record of its relation (a payment's journal).
      const relation = [...other.relations.values()].find((r) => r.kind === 'belongsTo' && r.foreignKey === field.name);
      const value = relation ? await firstLiveId(relation.resource) : sampleValue(field, { referenceIds: new Map(), registry, tag: directTag }, n);
      row[field.name] = field.type === 'strings' ? JSON.stringify(value) : value;
    }
    if (other.parent)
      row[other.parent.foreignKey] =
        parentRowId ?? (await firstLiveId(other.parent.resource)) ?? (await createOne(other.parent.resource)) ?? (await insertDirect(other.parent.resource));
    Object.assign(row, ownScope(other));
    if (other.timestamps) Object.assign(row, { created_at: '2025-01-31 09:30:00.000000', updated_at: '2025-01-31 09:30:00.000000' });
    const [id] = await knex(other.table).insert(row);
    return Number(id);
  };
  const creatable = (name: string) => registry.get(name).operations.has('create') && !registry.get(name).parent;
  // A read-only nested resource is read under a parent that has some of its rows, when one has
  // (the receipts a confirmed purchase order made), rather than written straight to its table.
  const parentWithRows = async (): Promise<number | undefined> => {
    if (!def.parent || def.operations.has('create')) return undefined;
    const parent = registry.get(def.parent.resource);
    // The parent under an alias of its own: it may be a row of the same table (a product's variants).
    const query = knex(def.table)
      .join(`${parent.table} as parent_row`, 'parent_row.id', `${def.table}.${def.parent.foreignKey}`)
      .orderBy('parent_row.id')
      .first('parent_row.id as id');
    if (parent.softDelete) query.whereNull('parent_row.deleted_at');
    if (def.softDelete) query.whereNull(`${def.table}.deleted_at`);
    applyScope(query, def, registry, knex);
    const row = await query;
    return row ? Number(row.id) : undefined;
  };
  // A nested resource that the suite writes gets a parent of its own where the parent's API makes
  // one: its creates, updates and deletes then stay out of the records other suites rely on (the
  // seeded sales tax's repartition lines, which every invoice of the accounting suites books by).
  const ownParent = async () => (def.parent && def.operations.has('create') && creatable(def.parent.resource) ? createOne(def.parent.resource) : undefined);
  const parentId = def.parent
    ? ((await parentWithRows()) ??
      (await ownParent()) ??
      (await firstLiveId(def.parent.resource)) ??
      (creatable(def.parent.resource) ? await createOne(def.parent.resource) : await insertDirect(def.parent.resource)))
    : undefined;
  if (!def.operations.has('create') && (def.operations.has('list') || def.operations.has('show')) && def.parent && parentId !== undefined) {
    // Live rows only: another resource of the same table (a product's variants seen from another
    // module) may have archived the ones there were.
    const live = knex(def.table).where(def.parent.foreignKey, parentId).where(ownScope(def));
    if (def.softDelete) live.whereNull('deleted_at');
    const rows = await live.count({ n: '*' }).first();
    // Deleting uses records up: a resource that deletes what it does not create gets three.
    const wanted = def.operations.has('delete') || def.operations.has('forceDelete') ? 3 : 1;
    if (Number(rows!.n) < wanted) for (let i = Number(rows!.n); i < 3; i++) await insertDirect(def.name, parentId);
  }
  // Likewise a top-level resource that only its behaviours write (payments, made by `pay`).
  if (!def.operations.has('create') && def.operations.has('list') && !def.parent && def.behaviours.beforeCreate.length === 0 && (await firstLiveId(def.name)) === undefined) {
    for (let i = 0; i < 3; i++) await insertDirect(def.name);
  }
  // Ids for every resource a body may point at: references, ids fields, and those of nested records.
  const referenceIds = new Map<string, number>();
  if (def.parent && parentId !== undefined) referenceIds.set(def.parent.resource, parentId);
  const missing = await collect(def, referenceIds, { strict: true, depth: 0 });
  if (missing) throw new Error(`${def.name}: no ${missing} row to reference`);
  // ids fields that name their records by another column (a role's permissions by name).
  const referenceKeys = new Map<string, unknown>();
  for (const field of def.fields.values()) {
    if (field.type !== 'ids' || !field.by || !field.writable) continue;
    const target = registry.get(def.relations.get(field.relation!)!.resource);
    const row = await knex(target.table).where('id', referenceIds.get(target.name)!).first(field.by);
    referenceKeys.set(`${target.name}.${field.by}`, row[field.by]);
  }
  const listPath = `${API}${def.path}`.replace(`{${def.parent?.param}}`, String(parentId));
  return {
    def,
    registry,
    target,
    app,
    client: app.client,
    token: app.token,
    parentId,
    listPath,
    payload: { referenceIds, referenceKeys, registry, tag: Math.random().toString(36).slice(2, 8) },
    created: [],
    createRecord: (name) => createOne(name),
  };
}

/** Every generated route with its placeholders filled, for the 401 checks. */
export function concreteRoutes(context: ResourceContext) {
  return routeTable(context.def, API).map((route) => ({
    ...route,
    url: route.path.replace(`{${context.def.parent?.param}}`, String(context.parentId ?? 1)).replace('{id}', '1'),
  }));
}

/** Rows of the table that this resource's list would show (same parent, not trashed). */
export function liveRows(context: ResourceContext) {
  const { def, app } = context;
  const query = app.knex(def.table);
  if (def.parent) query.where(`${def.table}.${def.parent.foreignKey}`, context.parentId!);
  if (def.softDelete) query.whereNull(`${def.table}.deleted_at`);
  applyScope(query, def, context.registry, app.knex);
  return query;
}
