// What every write of one unit shares (its transaction, change set, user and the writers of the
// other resources), and the one place the contexts handed to behaviours are made from it.
import type { Knex } from 'knex';
import type { ChangeSet } from '../behaviours/change-set.ts';
import type { ActionContext, AuthUser, Behaviours, HookContext, Models, Records } from '../behaviours/types.ts';
import type { Registry } from '../definition/registry.ts';
import type { ResourceDef } from '../definition/types.ts';
import type { SchemaBounds } from '../schema/column-bounds.ts';
import type { Values } from '../validation/body-validator.ts';

export interface WriteContext {
  trx: Knex.Transaction;
  /** What the unit changed (engine/changes): every record written here is added. */
  changes: ChangeSet;
  registry: Registry;
  behaviours: Behaviours;
  user: AuthUser;
  /** The acting user's default company (definitions' `defaultFrom: {user: company}`). */
  userCompany(): number | null;
  params: Record<string, string>;
  models: Models;
  /** What each column stores: bounds the bodies behaviours write (engine/schema/column-bounds.ts). */
  bounds?: SchemaBounds;
  /** Other resources' records, written through this same pipeline (writers.ts). */
  records: Records;
}

/** What a record's hooks are given. */
export function hookContext(context: WriteContext, def: ResourceDef, values: Values, record?: Values, index?: number): HookContext {
  return {
    trx: context.trx,
    def,
    user: context.user,
    values,
    record,
    params: context.params,
    changes: context.changes,
    records: context.records,
    ...(index !== undefined && { index }),
    get models() {
      return context.models;
    },
  };
}

/** What a workflow action's behaviour is given: the locked record and the body's validated values. */
export function actionContext(context: WriteContext, def: ResourceDef, record: Record<string, any>, input: Record<string, unknown>): ActionContext {
  return {
    trx: context.trx,
    def,
    user: context.user,
    record,
    input,
    params: context.params,
    changes: context.changes,
    records: context.records,
    get models() {
      return context.models;
    },
  };
}
