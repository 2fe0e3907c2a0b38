// Generates the Fastify routes of every resource from the registry, once, at boot.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Operation } from '../definition/format.ts';
import { registerResponseSchemas } from '../serialize/route-serializers.ts';
import { buildSerializers } from '../serialize/record.ts';
import { compileBodyValidator } from '../validation/body-validator.ts';
import { columnsOf } from '../sql/columns.ts';
import { actionHandler } from './handlers/action.ts';
import { collectionActionHandler } from './handlers/collection-action.ts';
import { createHandler } from './handlers/create.ts';
import { deleteHandler, forceDeleteHandler } from './handlers/delete.ts';

import { listHandler } from './handlers/list.ts';
import { restoreHandler } from './handlers/restore.ts';
import { showHandler } from './handlers/show.ts';
import { updateHandler } from './handlers/update.ts';
import { fastifyPath, routeKey, routeTable } from '../definition/route-table.ts';
import type { EngineDeps } from '../contract/index.ts';
import { buildModels } from '../models/build-models.ts';
import { changeRecorder } from '../changes/record-changes.ts';
import { registerChangeFeed } from './changes.ts';
import type { ResourceRuntime } from './runtime.ts';
import type { ResourceDef } from '../definition/types.ts';
import { loadedRelations } from './loaded-relations.ts';
import { registerExports } from './export.ts';
import { registerAggregates } from './aggregate.ts';
import { writePlan } from '../write/plan.ts';
import type { WriteEnvironment } from '../write/unit.ts';

const handlers: Record<Operation, (runtime: ResourceRuntime) => (request: any, reply: any) => Promise<unknown>> = {
  list: listHandler,
  create: createHandler,
  show: showHandler,
  update: updateHandler,
  delete: deleteHandler,
  restore: restoreHandler,
  forceDelete: forceDeleteHandler,
};

/** Registers the routes; returns each resource's runtime, for the routes built on them (imports). */
export function registerResources(app: FastifyInstance, deps: EngineDeps): ReadonlyMap<string, ResourceRuntime> {
  const { registry } = deps;
  const serializers = buildSerializers(registry, deps.behaviours);
  // Responses are serialized through the documented schemas: nothing undocumented is sent.
  const responseSchemas = registerResponseSchemas(app, registry, deps.prefix);

  const runtimes = new Map<string, ResourceRuntime>();
  const columns = columnsOf(deps.behaviours, registry);
  const changes = changeRecorder(registry, columns, serializers, deps.knex);
  // Built on first use (a behaviour that reads another resource): serving never needs them.
  let models = deps.models;
  const modelsOnce = () => (models ??= buildModels(registry, deps.knex));
  const writes: WriteEnvironment = {
    knex: deps.knex,
    registry,
    behaviours: deps.behaviours,
    bounds: deps.bounds,
    models: modelsOnce,
    recorder: changes,
    userCompany: (user) => deps.policy.defaultCompany(user),
    companyTimeZone: deps.companyTimeZone,
  };
  for (const def of registry.all()) {
    runtimes.set(def.name, {
      def,
      parentDef: def.parent && registry.get(def.parent.resource),
      serialize: serializers.get(def.name)!,
      validator: compileBodyValidator(def, registry, deps.bounds),
      statements: deps.statements,
      columns,
      likeIgnoresCase: new Set([...(deps.bounds?.get(def.table) ?? [])].filter(([, column]) => column.likeIgnoresCase).map(([name]) => name)),
      others: (name) => runtimes.get(name)!,
      loaded: (includes) => loadedRelations(def, includes),
      get models() {
        return modelsOnce();
      },
      changes,
      writes,
      deps,
    });
    // What a write of it needs, worked out at boot rather than on its first write.
    writePlan(def, registry);
  }
  registerChangeFeed(app, deps);
  for (const def of registry.all()) {
    const runtime = runtimes.get(def.name)!;
    for (const route of routeTable(def, deps.prefix)) {
      app.route({
        method: route.method,
        url: fastifyPath(route.path),
        ...authentication(deps, def, route.operation),
        handler: route.action
          ? (def.actions.get(route.action)!.on === 'collection' ? collectionActionHandler : actionHandler)(runtime, route.action)
          : handlers[route.operation as Operation](runtime),
        ...responseSchemas(route),
        config: { resource: def.name, operation: routeKey(route) },
      });
    }
  }
  registerExports(app, runtimes.values());
  registerAggregates(app, runtimes.values());
  return runtimes;
}

/**
 * The authentication hook of a route. List (its count), show, and create under a parent read one
 * row first: their token check can go with that read (engine/sql/pending-authentication.ts). Such a route may
 * not answer with the check still pending; the error handler settles it before any error.
 */
function authentication(deps: EngineDeps, def: ResourceDef, operation: string | undefined) {
  const firstReadIsOneRow = operation === 'list' || operation === 'show' || (operation === 'create' && def.parent !== undefined);
  if (!firstReadIsOneRow || !deps.authenticateWithFirstRead) return { onRequest: deps.authenticate };
  return {
    onRequest: deps.authenticateWithFirstRead,
    // A callback hook: it runs on every answer, and an async one costs a promise each time.
    onSend: (request: FastifyRequest, _reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => {
      if (request.pendingAuthentication) done(new Error('A response was about to be sent before the token check ran.'));
      else done(null, payload);
    },
  };
}
