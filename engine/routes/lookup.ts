// Finding the parent and the record a request names (a miss is a 404), and asking the policy
// whether the user may act on them (a refusal is a 403).
import type { FastifyRequest } from 'fastify';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors/http-errors.ts';
import type { ResourceDef } from '../definition/types.ts';
import type { TrashedMode } from '../list/filters/trashed.ts';
import { includeTree, loadRelations } from '../sql/load-relations.ts';
import { condition, quote, whereClause, type Condition } from '../sql/quote.ts';
import type { Row } from '../sql/statements.ts';
import { resourceRows } from '../sql/resource-rows.ts';
import { pathId } from './path-params.ts';
import type { ResourceRuntime, RowScope } from './runtime.ts';

export type { Row };

/** The parent a nested path names (a trashed or hidden parent counts as missing); undefined for a top-level resource. */
export async function findParent(runtime: ResourceRuntime, request: FastifyRequest): Promise<{ id: number; record: Row } | undefined> {
  const parent = await lookUpParent(runtime, request);
  if (parent === null) throw new NotFoundError();
  return parent;
}

/** The parent a nested path names, or null when there is none the user may see (undefined: not a nested resource). */
export async function lookUpParent(runtime: ResourceRuntime, request: FastifyRequest): Promise<{ id: number; record: Row } | null | undefined> {
  const { def, parentDef, deps } = runtime;
  if (!def.parent || !parentDef) return undefined;
  const id = pathId(request, def.parent.param);
  const rows = deps.policy.rowScope(request.authUser!, parentDef);
  const record = await selectById(runtime, parentDef, id, resourceRows(parentDef, deps.registry, { rows }));
  return record ? { id, record } : null;
}

/**
 * The parent a nested path names, as a condition for a read that needs no parent row (show and
 * list: the policy looks at a parent only for changes): one query instead of two.
 */
export function parentExists(runtime: ResourceRuntime, request: FastifyRequest): { id: number; condition: Condition } | undefined {
  const { def, parentDef, deps } = runtime;
  if (!def.parent || !parentDef) return undefined;
  const id = pathId(request, def.parent.param);
  const rows = deps.policy.rowScope(request.authUser!, parentDef);
  const where = whereClause([condition(`${quote(`${parentDef.table}.id`)} = ?`, id), ...resourceRows(parentDef, deps.registry, { rows })]);
  return { id, condition: { sql: `EXISTS (SELECT 1 FROM ${quote(parentDef.table)}${where.sql})`, params: where.params } };
}

/**
 * 403 unless the policy allows the operation. A nested resource that authorizes against its
 * parent is asked about the parent record; the others about the record itself, once found.
 */
export function authorize(runtime: ResourceRuntime, request: FastifyRequest, operation: string, found: { parent?: Row; record?: Row }): void {
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
  /** More conditions the record must meet (its parent exists). */
  also?: Condition[];
}

/** The record with this id among the rows the request may read, with its includes loaded; else 404. */
export async function findRecord(runtime: ResourceRuntime, id: number, options: FindOptions): Promise<Row> {
  const { def, deps } = runtime;
  const record = await selectById(runtime, def, id, [...resourceRows(def, deps.registry, options), ...(options.also ?? [])]);
  if (!record) throw new NotFoundError();
  await loadRelations(runtime.statements, deps.registry, runtime.columns, def, [record], includeTree(runtime.loaded(options.includes)));
  return record;
}

async function selectById(runtime: ResourceRuntime, def: ResourceDef, id: number, conditions: Condition[]): Promise<Row | undefined> {
  const where = whereClause([condition(`${quote(`${def.table}.id`)} = ?`, id), ...conditions]);
  const [row] = await runtime.statements.all(`SELECT ${runtime.columns(def)} FROM ${quote(def.table)}${where.sql} LIMIT 1`, where.params);
  return row;
}
