import type { FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import type { ChangeSet } from '../../behaviours/change-set.ts';
import type { Action, ActionResult } from '../../behaviours/types.ts';
import type { ResourceRuntime } from '../runtime.ts';
import { writeContext } from '../write-context.ts';

/** Runs an action's behaviour (resolved at boot) on a locked row, in the write unit's transaction, with the body's validated values. */
export async function runActionBehaviour(
  runtime: ResourceRuntime,
  request: FastifyRequest,
  run: Action,
  trx: Knex.Transaction,
  changes: ChangeSet,
  record: Record<string, any>,
  input: Record<string, unknown> = {},
): Promise<ActionResult | undefined> {
  const context = writeContext(runtime, request, trx, changes);
  return (
    (await run({
      trx,
      def: runtime.def,
      user: context.user,
      record,
      input,
      params: context.params,
      changes,
      records: context.records,
      get models() {
        return runtime.models;
      },
    })) ?? undefined
  );
}
