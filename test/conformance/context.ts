// What every capability check of one resource on one database needs, prepared in `before`.
import type { Registry } from '../../engine/definition/registry.ts';
import type { ResourceDef } from '../../engine/definition/types.ts';
import { routeTable } from '../../engine/routes/route-table.ts';
import { API, sharedApp, type TestApp } from '../helpers/app.ts';
import type { Client } from '../helpers/http.ts';
import type { Target } from '../helpers/targets.ts';
import type { PayloadContext } from './payloads.ts';

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
  const firstLiveId = async (name: string): Promise<number | undefined> => {
    const other = registry.get(name);
    const query = knex(other.table).orderBy('id').first('id');
    if (other.softDelete) query.whereNull('deleted_at');
    const row = await query;
    return row ? Number(row.id) : undefined;
  };

  const parentId = def.parent ? await firstLiveId(def.parent.resource) : undefined;
  // Ids for every resource a body may point at: references, ids fields, and those of nested records.
  const referenceIds = new Map<string, number>();
  const collect = async (owner: ResourceDef) => {
    for (const field of owner.fields.values()) {
      if (!field.writable) continue;
      const relation = field.relation ? owner.relations.get(field.relation) : undefined;
      if (field.type === 'records' && relation) await collect(registry.get(relation.resource));
      const name = field.references ?? (field.type === 'ids' ? relation?.resource : undefined);
      if (!name || referenceIds.has(name)) continue;
      const id = name === def.parent?.resource ? parentId : await firstLiveId(name);
      if (id === undefined) throw new Error(`${def.name}: no ${name} row to reference`);
      referenceIds.set(name, id);
    }
  };
  await collect(def);
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
    payload: { referenceIds, registry, tag: Math.random().toString(36).slice(2, 8) },
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
  const { def } = context;
  const query = context.app.knex(def.table);
  if (def.parent) query.where(def.parent.foreignKey, context.parentId!);
  if (def.softDelete) query.whereNull('deleted_at');
  return query;
}
