// Finding the parent and the record a request names; a miss is a 404.
import type { FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import { NotFoundError, ForbiddenError } from '../errors/http-errors.ts';
import type { Operation } from '../definition/format.ts';
import type { TrashedMode } from '../list/filters/trashed.ts';
import { pathId } from './path-params.ts';
import type { ResourceRuntime } from './runtime.ts';
import { graphExpression, loadedRelations, scopedQuery } from './scope.ts';

/** Checks the parent exists (a trashed parent counts as missing) and returns its id. */
export async function findParentId(runtime: ResourceRuntime, request: FastifyRequest): Promise<number | undefined> {
  const { def, parentDef, parentModel } = runtime;
  if (!def.parent || !parentDef || !parentModel) return undefined;
  const parentId = pathId(request, def.parent.param);
  const parent = await scopedQuery(parentModel, parentDef, runtime.deps.registry, {}).findById(parentId).select(`${parentDef.table}.id`);
  if (!parent) throw new NotFoundError();
  return parentId;
}

export async function authorize(runtime: ResourceRuntime, request: FastifyRequest, operation: Operation): Promise<void> {
  const allowed = await runtime.deps.authorize(request.authUser!, runtime.def, operation);
  if (!allowed) throw new ForbiddenError();
}

export interface FindOptions {
  parentId?: number;
  trashed?: TrashedMode;
  includes?: readonly string[];
  trx?: Knex.Transaction;
}

export async function findRecord(runtime: ResourceRuntime, id: number, options: FindOptions): Promise<Record<string, unknown>> {
  const { def, model } = runtime;
  const query = scopedQuery(model, def, runtime.deps.registry, options).findById(id);
  const relations = loadedRelations(def, options.includes);
  if (relations.length > 0) query.withGraphFetched(graphExpression(relations)).allowGraph(runtime.allowGraph);
  const record = await query;
  if (!record) throw new NotFoundError();
  return record as unknown as Record<string, unknown>;
}
