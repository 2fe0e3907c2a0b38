// Finding the parent and the record a request names (a miss is a 404), and asking the policy
// whether the user may act on them (a refusal is a 403).
import type { FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors/http-errors.ts';
import type { ResourceDef } from '../definition/types.ts';
import type { AuthUser } from '../behaviours/types.ts';
import type { ChangeSet } from '../behaviours/change-set.ts';
import type { TrashedMode } from '../sql/resource-rows.ts';
import { includeTree, loadRelations } from '../sql/load-relations.ts';
import { equals, existsIn, namesRowOf } from '../sql/conditions.ts';
import { linkedIds } from '../sql/key-reads.ts';
import { allOf, quote, whereClause, type Condition } from '../sql/quote.ts';
import { lockedRow } from '../sql/record-lock.ts';
import type { Row } from '../sql/statements.ts';
import { resourceRows } from '../sql/resource-rows.ts';
import { pathId } from './path-params.ts';
import { oneRow, readAuthenticated, type OneRowRead } from '../sql/pending-authentication.ts';
import { bindPoint, ID, PARENT_ID, type PointShape } from '../sql/coalesced-reads.ts';
import type { RowScope } from '../contract/index.ts';
import type { ResourceRuntime } from './runtime.ts';

export type { Row };

/** The parent a nested path names (a trashed or hidden parent counts as missing); undefined for a top-level resource. */
export async function findParent(runtime: ResourceRuntime, request: FastifyRequest): Promise<{ id: number; record: Row } | undefined> {
  const parent = await lookUpParent(runtime, request);
  if (parent === null) throw new NotFoundError();
  return parent;
}

/**
 * The parent a nested path names, or null when there is none the user may see (undefined: not a
 * nested resource). A pending authentication check goes with this read.
 */
export async function lookUpParent(runtime: ResourceRuntime, request: FastifyRequest): Promise<{ id: number; record: Row } | null | undefined> {
  const { def, parentDef, deps } = runtime;
  if (!def.parent || !parentDef) return undefined;
  const id = pathId(request, def.parent.param);
  const record = await readAuthenticated(runtime.statements, request, (user) =>
    byId(runtime, parentDef, id, resourceRows(parentDef, deps.registry, { rows: deps.policy.rowScope(user, parentDef) })),
  );
  return record ? { id, record } : null;
}

/**
 * The record a show names, among the rows the user may see, with its includes; else 404. Its
 * parent's existence is checked in the same query (unless the record's foreign key proves it), and
 * a pending authentication check goes with it.
 */
export async function findShownRecord(runtime: ResourceRuntime, request: FastifyRequest, id: number, includes: readonly string[]): Promise<Row> {
  const parentId = runtime.def.parent ? pathId(request, runtime.def.parent.param) : undefined;
  const record = await readAuthenticated(runtime.statements, request, (user) => shownRead(runtime, user, id, parentId));
  if (!record) throw new NotFoundError();
  return withRelations(runtime, record, includes);
}

/**
 * The read of a show. For a user the policy limits to some rows (companies, records naming them),
 * its conditions are written for that user. For everyone else, the usual case, its SQL does not
 * depend on the user: written once per resource, with the statement text for each authentication
 * check it goes with (`texts`), so that a request only fills in its id and its parent's id; and
 * the shows that arrive together can be read as one statement (`point`, ./coalesced-reads.ts).
 */
function shownRead(runtime: ResourceRuntime, user: AuthUser, id: number, parentId: number | undefined): OneRowRead {
  const { def, parentDef, deps } = runtime;
  const rows = deps.policy.rowScope(user, def);
  const parentRows = parentDef ? deps.policy.rowScope(user, parentDef) : undefined;
  if (rows || parentRows) return readFor(runtime, id, parentId, rows, parentRows);
  let fixed = unscoped.get(runtime);
  if (!fixed) unscoped.set(runtime, (fixed = fixedRead(runtime)));
  return fixed(id, parentId);
}

function readFor(runtime: ResourceRuntime, id: number, parentId: number | undefined, rows: RowScope | undefined, parentRows: RowScope | undefined): OneRowRead {
  const { def, deps } = runtime;
  const parent = parentId === undefined || !runtime.parentDef ? undefined : pathParent(runtime, parentId, parentRows);
  const conditions = resourceRows(def, deps.registry, { parentId, rows });
  return byId(runtime, def, id, parent && !parent.impliedByRecord ? [...conditions, parent.exists()] : conditions);
}

const unscoped = new WeakMap<ResourceRuntime, (id: number, parentId: number | undefined) => OneRowRead>();

// The read is written once with stand-ins for the two values a request brings (ID, PARENT_ID),
// and their places among the bindings are filled in per request.
function fixedRead(runtime: ResourceRuntime): (id: number, parentId: number | undefined) => OneRowRead {
  const { def } = runtime;
  const written = readFor(runtime, ID as unknown as number, def.parent ? (PARENT_ID as unknown as number) : undefined, undefined, undefined);
  const { columns, from } = written;
  const bindings = from!.where.params;
  const texts: OneRowRead['texts'] = new Map();
  const shape: PointShape = { statements: runtime.statements, columns, table: from!.table, where: from!.where, parentColumn: def.parent?.foreignKey };
  return (id, parentId) => {
    const params = bindPoint(bindings, id, parentId);
    return { columns, from: { table: from!.table, where: { sql: from!.where.sql, params } }, texts, point: { shape, id, parentId } };
  };
}

export interface PathParent {
  id: number;
  /** EXISTS: the parent is there and the user may see it (built when asked: a show whose record proves the parent never does). */
  exists(): Condition;
  /** The parent's only condition is its id: a record that names it by foreign key proves it. */
  impliedByRecord: boolean;
}

/**
 * The parent a nested path names, as a condition for a read that needs no parent row (show and
 * list: the policy looks at a parent only for changes): one query instead of two.
 * `impliedByRecord`: the parent's only condition is its id. A record whose foreign key names the
 * parent then proves it exists (the parent's column is a foreign key: make-migration and the
 * migrations declare it so), and a show can leave the condition out: on MariaDB the subquery was
 * a third of the statement's cost. A list still needs it, to tell an empty page from no parent.
 */
export function parentExists(runtime: ResourceRuntime, request: FastifyRequest, user: AuthUser = request.authUser!): PathParent | undefined {
  const { def, parentDef, deps } = runtime;
  if (!def.parent || !parentDef) return undefined;
  return pathParent(runtime, pathId(request, def.parent.param), deps.policy.rowScope(user, parentDef));
}

/** The parent with this id among the parent's rows the user may see (`rows`: the policy's scope of them). */
export function pathParent(runtime: ResourceRuntime, id: number, rows: RowScope | undefined): PathParent {
  const { parentDef, deps } = runtime;
  const visible = resourceRows(parentDef!, deps.registry, { rows });
  const exists = () => existsIn(parentDef!.table, whereClause([equals(quote(`${parentDef!.table}.id`), id), ...visible]));
  return { id, exists, impliedByRecord: visible.length === 0 };
}

/**
 * 403 unless the policy allows the operation. A nested resource that authorizes against its
 * parent is asked about the parent record; the others about the record itself, once found.
 */
export function authorize(runtime: ResourceRuntime, request: FastifyRequest, operation: string, found: { parent?: Row; record?: Row; owners?: readonly number[] }): void {
  const { def, parentDef, deps } = runtime;
  const throughParent = def.access.subjectResource !== def.name && parentDef !== undefined;
  const allowed = deps.policy.authorize(request.authUser!, {
    def: throughParent ? parentDef : def,
    operation,
    permissions: def.access.permissions[operation] ?? [],
    record: throughParent ? found.parent : found.record,
    owners: found.owners,
  });
  if (!allowed) throw new ForbiddenError();
}

/**
 * authorize() for a change of a found record (update, delete, restore, force delete, an action):
 * the policy is also given the ids of the record's owners, when its definition names an `owner`
 * (a column, or a many-to-many relation to users: a task's assignees, read here in one query).
 */
export async function authorizeChange(runtime: ResourceRuntime, request: FastifyRequest, operation: string, found: { parent?: Row; record?: Row }): Promise<void> {
  const { def, parentDef } = runtime;
  const throughParent = def.access.subjectResource !== def.name && parentDef !== undefined;
  const [ownerDef, record] = throughParent ? [parentDef, found.parent] : [def, found.record];
  authorize(runtime, request, operation, { ...found, owners: record ? await ownersOf(runtime, ownerDef, record) : undefined });
}

async function ownersOf(runtime: ResourceRuntime, def: ResourceDef, record: Row): Promise<number[] | undefined> {
  const { owner, ownerThrough } = def.access;
  if (!owner) return undefined;
  if (!ownerThrough) return record[owner] === null || record[owner] === undefined ? [] : [Number(record[owner])];
  return linkedIds(runtime.statements, ownerThrough, record.id);
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
}

/** The record with this id among the rows the request may read, with its includes loaded; else 404. */
export async function findRecord(runtime: ResourceRuntime, id: number, options: FindOptions): Promise<Row> {
  const { def, deps } = runtime;
  const record = await selectById(runtime, def, id, resourceRows(def, deps.registry, options));
  if (!record) throw new NotFoundError();
  return withRelations(runtime, record, options.includes);
}

/**
 * The record a request's unit of writing just wrote, to answer with: as the unit's change recorder
 * read it back in the transaction, after every write of the unit (its own fields and embedded
 * relations, as `findRecord` reads them), unless the request asks for includes. Else the row the
 * insert returned with its relations, or the record read again.
 */
export async function writtenRecord(runtime: ResourceRuntime, changes: ChangeSet, id: number, options: FindOptions, returned?: Row): Promise<Row> {
  const readBack = options.includes?.length ? undefined : changes.readBack.get(`${runtime.def.name} ${id}`);
  if (readBack) return readBack as Row;
  return returned ? withRelations(runtime, returned, options.includes) : findRecord(runtime, id, options);
}

/** The record with the relations its resource always embeds and those the client asked for. */
export async function withRelations(runtime: ResourceRuntime, record: Row, includes?: readonly string[]): Promise<Row> {
  await loadRelations(runtime.statements, runtime.deps.registry, runtime.columns, runtime.def, [record], includeTree(runtime.loaded(includes)));
  return record;
}

/**
 * The record as a show reads it (its own fields and embedded relations), read inside a write's
 * transaction with its row locked until the transaction ends (`FOR UPDATE`; SQLite has one writer
 * at a time anyway): what the transaction then writes is decided on this version of it. Undefined
 * when the row is gone.
 */
export async function lockRecord(runtime: ResourceRuntime, trx: Knex.Transaction, id: number): Promise<Row | undefined> {
  const { def } = runtime;
  const row = await lockedRow(trx, def.table, runtime.columns(def), id);
  return row ? withRelations(runtime, row) : undefined;
}

async function selectById(runtime: ResourceRuntime, def: ResourceDef, id: number, conditions: Condition[]): Promise<Row | undefined> {
  const [row] = await runtime.statements.all(...oneRow(byId(runtime, def, id, conditions)));
  return row;
}

export function byId(runtime: ResourceRuntime, def: ResourceDef, id: number, conditions: Condition[]): OneRowRead {
  const where = allOf([equals(quote(`${def.table}.id`), id), ...conditions]);
  return { columns: runtime.columns(def), from: { table: quote(def.table), where } };
}

/** The rows whose parent the user may see (live, in their companies), as the parent's path would find it. */
export function visibleParents(runtime: ResourceRuntime, user: AuthUser): Condition {
  const { def, parentDef, deps } = runtime;
  const where = whereClause(resourceRows(parentDef!, deps.registry, { rows: deps.policy.rowScope(user, parentDef!) }));
  // Inside the subquery the parent's table is the nearest: its conditions name it even when it is the
  // nested resource's own table (a product's variants).
  return namesRowOf(quote(`${def.table}.${def.parent!.foreignKey}`), parentDef!.table, where);
}
