// Finding the parent and the record a request names (a miss is a 404), and asking the policy
// whether the user may act on them (a refusal is a 403).
import type { FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import type { Operation } from '../definition/format.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors/http-errors.ts';
import type { TrashedMode } from '../list/filters/trashed.ts';
import { pathId } from './path-params.ts';
import type { ResourceRuntime, RowScope } from './runtime.ts';
import { graphExpression, loadedRelations, scopedQuery } from './scope.ts';

export type Row = Record<string, unknown>;

/** The parent a nested path names (a trashed or hidden parent counts as missing); undefined for a top-level resource. */
export async function findParent(runtime: ResourceRuntime, request: FastifyRequest): Promise<{ id: number; record: Row } | undefined> {
  const { def, parentDef, parentModel, deps } = runtime;
  if (!def.parent || !parentDef || !parentModel) return undefined;
  const id = pathId(request, def.parent.param);
  const rows = deps.policy.rowScope(request.authUser!, parentDef);
  const record = await scopedQuery(parentModel, parentDef, deps.registry, { rows }).findById(id);
  if (!record) throw new NotFoundError();
  return { id, record: record as unknown as Row };
}

/**
 * 403 unless the policy allows the operation. A nested resource that authorizes against its
 * parent is asked about the parent record; the others about the record itself, once found.
 */
export function authorize(runtime: ResourceRuntime, request: FastifyRequest, operation: Operation, found: { parent?: Row; record?: Row }): void {
  const { def, parentDef, deps } = runtime;
  const throughParent = def.access.subjectResource !== def.name && parentDef !== undefined;
  const allowed = deps.policy.authorize(request.authUser!, {
    def: throughParent ? parentDef : def,
    operation,
    permissions: def.access.permissions[operation] ?? [],
    record: throughParent ? found.parent : found.record,
  });
  if (!allowed) throw new ForbiddenError();
}

/** The policy's own checks of validated values (a company the user does not work in): 422. */
export function checkValues(runtime: ResourceRuntime, request: FastifyRequest, values: Row, mode: 'create' | 'update'): void {
  const errors = runtime.deps.policy.checkValues(request.authUser!, runtime.def, values, mode);
  if (errors && Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/** The rows of this resource the request's user may see. */
export function visibleRows(runtime: ResourceRuntime, request: FastifyRequest): RowScope | undefined {
  return runtime.deps.policy.rowScope(request.authUser!, runtime.def);
}

export interface FindOptions {
  parentId?: number;
  trashed?: TrashedMode;
  includes?: readonly string[];
  rows?: RowScope;
  trx?: Knex.Transaction;
}

export async function findRecord(runtime: ResourceRuntime, id: number, options: FindOptions): Promise<Row> {
  const { def, model } = runtime;
  const query = scopedQuery(model, def, runtime.deps.registry, options).findById(id);
  const relations = loadedRelations(def, options.includes);
  if (relations.length > 0) query.withGraphFetched(graphExpression(relations)).allowGraph(runtime.allowGraph);
  const record = await query;
  if (!record) throw new NotFoundError();
  return record as unknown as Row;
}
