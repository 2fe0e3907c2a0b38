// What every capability check of one resource on one database needs, prepared in `before`.
import type { Registry } from '../../engine/definition/registry.ts';
import { applyScope, ownScope } from '../../engine/definition/scope.ts';
import type { ResourceDef } from '../../engine/definition/types.ts';
import { routeTable } from '../../engine/definition/route-table.ts';
import { API, sharedApp, type TestApp } from '../helpers/app.ts';
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
}

export function recordPath(context: ResourceContext, id: number | string): string {
  return `${context.listPath}/${id}`;
}

export async function prepareContext(def: ResourceDef, registry: Registry, target: Target): Promise<ResourceContext> {
  const app = await sharedApp(target);
  const knex = app.knex;
  // The first row a reference may point at: live, inside the target's own scope, and matching the
  // referencing resource's scope through that field (a receipt's operation type is incoming).
  const firstLiveId = async (name: string, conditions: Record<string, unknown> = {}): Promise<number | undefined> => {
    const other = registry.get(name);
    const query = knex(other.table).orderBy('id').first('id');
    if (other.softDelete) query.whereNull('deleted_at');
    for (const [column, value] of Object.entries({ ...ownScope(other), ...conditions })) query.where(column, value as string);
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

  // A referenced resource without rows yet gets one through its own API (e.g. a product tag),
  // with rows of what it references in turn (a product's category), found or created the same
  // way: a run of a few resources (TEST_RESOURCES) starts from the seeded data alone.
  const createOne = async (name: string, depth = 0): Promise<number | undefined> => {
    const other = registry.get(name);
    if (!other.operations.has('create') || other.parent || depth > 4) return undefined;
    const referenceIds = new Map<string, number>();
    const gather = async (owner: ResourceDef) => {
      for (const field of owner.fields.values()) {
        if (!field.writable) continue;
        const relation = field.relation ? owner.relations.get(field.relation) : undefined;
        if (field.type === 'records' && relation) await gather(registry.get(relation.resource));
        const target = field.references ?? (field.type === 'ids' ? relation?.resource : undefined);
        if (!target || referenceIds.has(target) || target === name) continue;
        const id = (await firstLiveId(target, { ...scopeThrough(owner, field.name), ...field.referencesWhere })) ?? (await createOne(target, depth + 1));
        if (id !== undefined) referenceIds.set(target, id);
      }
    };
    await gather(other);
    const payload = validPayload(other, { referenceIds, registry, tag: 'ref' }, 0);
    const response = await app.client.post(`${API}${other.path}`, { token: app.token, body: payload });
    return response.status === 201 ? response.body.data.id : undefined;
  };
  // Records that no route creates (what a worker writes: webhook deliveries and their attempts)
  // are written straight to their table from their definition, parents first, so that the list
  // and show checks have rows to read.
  const insertDirect = async (name: string): Promise<number> => {
    const other = registry.get(name);
    const row: Record<string, unknown> = {};
    for (const field of other.fields.values()) {
      if (!field.stored || field.name === 'id') continue;
      const value = sampleValue(field, { referenceIds: new Map(), registry, tag: 'direct' }, 0);
      row[field.name] = field.type === 'strings' ? JSON.stringify(value) : value;
    }
    if (other.parent)
      row[other.parent.foreignKey] = (await firstLiveId(other.parent.resource)) ?? (await createOne(other.parent.resource)) ?? (await insertDirect(other.parent.resource));
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
    const query = knex(def.table).join(parent.table, `${parent.table}.id`, `${def.table}.${def.parent.foreignKey}`).orderBy(`${parent.table}.id`).first(`${parent.table}.id as id`);
    if (parent.softDelete) query.whereNull(`${parent.table}.deleted_at`);
    if (def.softDelete) query.whereNull(`${def.table}.deleted_at`);
    const row = await query;
    return row ? Number(row.id) : undefined;
  };
  const parentId = def.parent
    ? ((await parentWithRows()) ??
      (await firstLiveId(def.parent.resource)) ??
      (creatable(def.parent.resource) ? await createOne(def.parent.resource) : await insertDirect(def.parent.resource)))
    : undefined;
  if (!def.operations.has('create') && (def.operations.has('list') || def.operations.has('show')) && def.parent && parentId !== undefined) {
    const rows = await knex(def.table).where(def.parent.foreignKey, parentId).count({ n: '*' }).first();
    if (Number(rows!.n) === 0) for (let i = 0; i < 3; i++) await insertDirect(def.name);
  }
  // Ids for every resource a body may point at: references, ids fields, and those of nested records.
  const referenceIds = new Map<string, number>();
  const collect = async (owner: ResourceDef) => {
    for (const field of owner.fields.values()) {
      if (!field.writable) continue;
      const relation = field.relation ? owner.relations.get(field.relation) : undefined;
      if (field.type === 'records' && relation) await collect(registry.get(relation.resource));
      const name = field.references ?? (field.type === 'ids' ? relation?.resource : undefined);
      if (!name || referenceIds.has(name)) continue;
      const id =
        name === def.parent?.resource ? parentId : ((await firstLiveId(name, { ...scopeThrough(owner, field.name), ...field.referencesWhere })) ?? (await createOne(name)));
      if (id === undefined) throw new Error(`${def.name}: no ${name} row to reference`);
      referenceIds.set(name, id);
    }
  };
  await collect(def);
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
