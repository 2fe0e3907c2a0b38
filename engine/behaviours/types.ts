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

export interface Behaviours {
  hooks: Record<string, Hook>;
  batches: Record<string, BatchHook>;
  computed: Record<string, ComputedField>;
  subqueries: Record<string, Subquery>;
  actions: Record<string, Action>;
}

export function behaviourNames(behaviours: Behaviours): Set<string> {
  return new Set([...Object.keys(behaviours.hooks), ...Object.keys(behaviours.batches), ...Object.keys(behaviours.computed), ...Object.keys(behaviours.subqueries)]);
}

export function actionNames(behaviours: Behaviours): Set<string> {
  return new Set(Object.keys(behaviours.actions));
}
