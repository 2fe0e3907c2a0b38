// Named behaviours: business rules a definition cannot express, implemented in src/ and
// referenced from YAML by name. The engine only knows these shapes.
import type { Knex } from 'knex';
import type { Model } from 'objection';
import type { ChangeSet } from './change-set.ts';
import type { ResourceDef } from '../definition/types.ts';

/**
 * The Objection model of every resource, by resource name (engine/models): for behaviours that
 * read or write other resources, bound to the write's transaction with `.query(trx)`.
 */
export type Models = Record<string, typeof Model>;

export interface AuthUser {
  id: number;
  name: string;
  email: string;
}

/** How a behaviour writes another resource's records (engine/write/writers.ts). */
export interface WriteOptions {
  /**
   * A write of the system rather than of a client: fields a body may not send (readOnly: a
   * document's state, its link to the order it comes from) may be given too. They are checked
   * as any other (type, bounds, the record a reference names).
   */
  system?: boolean;
}

/**
 * One resource's records, written the way a client's request writes them, in the current
 * transaction and as the acting user: the body validated by the resource's definition, then the
 * write pipeline (engine/write/): every step of the definition (value rules, sequences, formulas,
 * templates, trees, nested records, createWith, behaviours) and the change feed.
 */
export interface RecordWriter {
  /** Creates a record (with the nested records its body carries); returns its id. */
  create(body: Record<string, unknown>, options?: WriteOptions): Promise<number>;
  /**
   * Creates many records as `create` does each (the same pipeline: validated, defaulted, numbered,
   * templates, createWith, nested records), their before rules run for all at once, in multi-row
   * INSERTs: as many statements for 500 as for 5 (a definition whose rules need each record
   * written before the next, as after-create behaviours and trees do, writes them one by one).
   * Returns their ids in the bodies' order. A refused body throws a 422 naming its place.
   */
  createMany(bodies: ReadonlyArray<Record<string, unknown>>, options?: WriteOptions): Promise<number[]>;
  /** Updates the fields given of the record with this id (its locks and hooks apply). */
  update(id: number, patch: Record<string, unknown>, options?: WriteOptions): Promise<void>;
  /**
   * A set-based update, one UPDATE whatever the number of rows: the records with these ids (or
   * that `where` selects, read once for the feed) get `values` (and updated_at). It is the
   * system's write of values its caller computed (a line's delivered quantity, a document's
   * state), not a client's body, so of the update's steps only two run: the copies other records
   * keep of them (`related`: an order's lines' state) follow, each copy changed going to the feed
   * as `updated`, and a record whose searched fields change gets their new words (`search`). Validation, value rules and behaviours do not run, and locks do not apply (they
   * keep clients from changing a posted document; its own workflow moves it on). A field another
   * step follows (a formula's operand, a template's value, a tree's parent, the reference a copy
   * follows) would leave that step's stored value stale: it is refused (an Error), and is
   * `update`'s to write. Each changed record goes to the change feed as `kind` (default `updated`)
   * with the fields set.
   */
  updateMany(where: readonly number[] | ((query: Knex.QueryBuilder) => void), values: Record<string, unknown>, kind?: string): Promise<number[]>;
  /**
   * Set-based too, each record with values of its own (every entry the same fields): one
   * statement per few dozen records, not one per record. It runs and refuses what updateMany
   * does, and is recorded as updateMany's are.
   */
  updateEach(rows: ReadonlyArray<{ id: number; values: Record<string, unknown> }>, kind?: string): Promise<void>;
  /**
   * Removes for good the records `where` selects (archived ones too), as a force delete does each:
   * their locks and delete behaviours refuse or run, `onDelete: restrict` refuses an owner that
   * still has such records (409), their last state and what the database changes along with them
   * (rows of other resources set to null or deleted) go to the change feed, then one DELETE. A
   * system removal (`system`) skips the locks and delete behaviours, which guard a client's
   * delete (a product's offer replaced removes its attributes without the variants an
   * attribute's delete takes along); `onDelete: restrict` still refuses.
   */
  forceDeleteMany(where: (query: Knex.QueryBuilder) => void, options?: WriteOptions): Promise<number[]>;
  /**
   * Records in the change feed records of this resource that its own implementation wrote with
   * SQL the writer has no statement for (the stock ledger's upserts adding to locked totals), or
   * whose access another write changed (a role's users): `kind` (default `updated`), with the
   * fields changed when given.
   */
  changed(ids: readonly number[], kind?: string, fields?: readonly string[]): void;
}

/** The writers of every resource, by resource name. */
export type Records = (resource: string) => RecordWriter;

export interface HookContext {
  trx: Knex.Transaction;
  def: ResourceDef;
  user: AuthUser;
  /** Validated body values (create/update); hooks may add or change columns before the write. */
  values: Record<string, any>;
  /** The stored row: before update/delete it is the current one, after create/update the new one. */
  record?: Record<string, any>;
  params: Record<string, string>;
  /** Written with its owner: its place in the owner's list (lines.<index>). */
  index?: number;
  models: Models;
  /** What the unit changed, for the change feed: a hook that writes another resource adds it here. */
  changes: ChangeSet;
  /** Another resource's records, written through the engine (validation, defaults, hooks, feed). */
  records: Records;
}

export type Hook = (context: HookContext) => Promise<void> | void;

/**
 * A hook given every record of one write at once (the lines of an order, the moves of a receipt),
 * so that what they share is read once. It refuses an entry by throwing entryError(context, errors).
 */
export type BatchHook = (contexts: HookContext[]) => Promise<void> | void;

/** A read-only value computed from the stored row, e.g. a currency rate's inverse. */
export type ComputedField = (row: Record<string, unknown>) => unknown;

/** What a workflow action is given: the record (locked for the transaction) and the request's validated body. */
export interface ActionContext<Input = Record<string, any>> {
  trx: Knex.Transaction;
  def: ResourceDef;
  user: AuthUser;
  /** The record as stored, read again inside the transaction (locked on MySQL/MariaDB). */
  record: Record<string, any>;
  /**
   * The body's values as the action's definition declares them (`body:`), validated before the
   * action runs: numbers, strings, dates as `YYYY-MM-DD`, lists of entries as lists of values; a
   * field not sent is absent, one sent as null is null. `{}` when the action declares no body.
   */
  input: Input;
  params: Record<string, string>;
  models: Models;
  /** What the unit changed, for the change feed: an action that writes other records adds them here. */
  changes: ChangeSet;
  /** Other resources' records, written through the engine (validation, defaults, hooks, feed). */
  records: Records;
}

/** The record to answer with, when not the one acted on (a return answers with the new operation). */
export interface ActionResult {
  id: number;
  /** Its resource, when not the action's `result` or the acting one. */
  resource?: string;
}

/** A workflow action's business rule; a refusal throws ActionRefusedError (422 {message}). */
// biome-ignore lint/suspicious/noConfusingVoidType: most actions return nothing and answer with the record they acted on
export type Action<Input = Record<string, any>> = (context: ActionContext<Input>) => Promise<ActionResult | void>;

/**
 * A read-only value the database works out with the row: the SQL of a scalar subquery, given the
 * quoted table of the row (stock on hand of a product: a sum over its quantities).
 */
export type Subquery = (table: string) => string;

/**
 * Drops a cache the application keeps (everyone's permissions) after a write to a resource whose
 * definition names it under `invalidates`: called once per unit of writing, in its transaction,
 * so that what it writes commits or rolls back with the write.
 */
export type Invalidator = (trx: Knex.Transaction) => Promise<void>;

export interface Behaviours {
  hooks: Record<string, Hook>;
  batches: Record<string, BatchHook>;
  computed: Record<string, ComputedField>;
  subqueries: Record<string, Subquery>;
  actions: Record<string, Action>;
  /** By the name definitions give under `invalidates` (access). */
  invalidators?: Record<string, Invalidator>;
}

export function behaviourNames(behaviours: Behaviours): Set<string> {
  return new Set([...Object.keys(behaviours.hooks), ...Object.keys(behaviours.batches), ...Object.keys(behaviours.computed), ...Object.keys(behaviours.subqueries)]);
}

export function actionNames(behaviours: Behaviours): Set<string> {
  return new Set(Object.keys(behaviours.actions));
}

export function invalidatorNames(behaviours: Behaviours): Set<string> {
  return new Set(Object.keys(behaviours.invalidators ?? {}));
}
