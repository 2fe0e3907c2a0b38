// The one place the contexts handed to behaviours are made from what every write of one unit
// shares (engine/keys/types.ts: WriteContext).
import type { ActionContext, HookContext } from '../behaviours/types.ts';
import type { ResourceDef } from '../definition/types.ts';
import type { WriteContext } from '../keys/types.ts';
import type { Values } from '../validation/body-validator.ts';

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
