// The routes a definition's operations generate, as data (also used by `erp routes` and the docs).
import type { HTTPMethods } from 'fastify';
import type { Operation } from './format.ts';
import type { ResourceDef } from './types.ts';

export type RouteOperation = Operation | 'action';

export interface RouteSpec {
  operation: RouteOperation;
  /** The workflow action's name, for `action` routes (POST {id}/validate, or POST on the collection). */
  action?: string;
  method: HTTPMethods;
  /** Contract form, with {param} placeholders, under the API prefix. */
  path: string;
}

/** The key of a route's permissions and documentation: the operation, or the action's name. */
export function routeKey(route: RouteSpec): string {
  return route.action ?? route.operation;
}

export function routeTable(def: ResourceDef, prefix: string): RouteSpec[] {
  const base = `${prefix}${def.path}`;
  const record = `${base}/{id}`;
  const routes: RouteSpec[] = [];
  const add = (operation: Operation, method: HTTPMethods, path: string) => {
    if (def.operations.has(operation)) routes.push({ operation, method, path });
  };
  add('list', 'GET', base);
  add('create', 'POST', base);
  add('show', 'GET', record);
  add('update', 'PUT', record);
  add('update', 'PATCH', record);
  add('delete', 'DELETE', record);
  add('restore', 'POST', `${record}/restore`);
  add('forceDelete', 'DELETE', `${record}/force`);
  // A collection action is POST on the collection itself (a resource with one has no create).
  for (const action of def.actions.values())
    routes.push({ operation: 'action', action: action.name, method: 'POST', path: action.on === 'collection' ? base : `${record}/${action.name}` });
  return routes;
}

/** `/a/{id}` → `/a/:id`, Fastify's placeholder syntax. */
export function fastifyPath(path: string): string {
  return path.replace(/\{([a-z_]+)\}/g, ':$1');
}
