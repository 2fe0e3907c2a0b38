import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ActionResult } from '../../behaviours/types.ts';
import { ActionRefusedError } from '../../errors/http-errors.ts';
import { clientErrorFromDb } from '../../errors/db-errors.ts';
import { parseIncludes, type RawQuery } from '../../list/parse-list-query.ts';
import type { ChangeSet } from '../../behaviours/change-set.ts';
import { authorizeChange, findParent, findRecord, visibleRows, writtenRecord } from '../lookup.ts';
import { recordETag } from '../etag.ts';
import { withRevealed } from '../../serialize/record.ts';
import { pathId } from '../path-params.ts';
import type { ResourceRuntime } from '../runtime.ts';
import { inRequestUnitWithChanges } from '../write-unit.ts';
import { actionContext } from '../../write/context.ts';
import { compileBodyValidator } from '../../validation/body-validator.ts';
import { numberOnAction } from '../../keys/sequence.ts';
import { applySet } from '../../keys/set.ts';
import { matches } from '../../definition/match.ts';

/**
 * POST {id}/<action>: the record (404, the definition's scope included: a delivery is not a
 * receipt), the permission (403), the action's `when` (422 `refused`), its body (422 naming each
 * bad field: the state's refusal comes first, as the original's reversal answers), then its
 * behaviour in one transaction on the record read again and locked, `when` checked again on it;
 * answers 200 {data, message} (201 when the action `creates` the record it answers with).
 */
export function actionHandler(runtime: ResourceRuntime, name: string) {
  const { def, deps } = runtime;
  const action = def.actions.get(name)!;
  const run = action.behaviour === undefined ? undefined : deps.behaviours.actions[action.behaviour]!;
  const body = action.body && compileBodyValidator(action.body, deps.registry, deps.bounds);
  const refuseUnlessAllowed = (record: Record<string, any>) => {
    if (action.when && !matches(def, action.when, record)) throw new ActionRefusedError(action.refused!);
  };
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const id = pathId(request, 'id');
    const includes = parseIncludes(request.query as RawQuery, runtime.others(action.result ?? def.name).def);
    const parent = await findParent(runtime, request);
    const found = await findRecord(runtime, id, { parentId: parent?.id, rows: visibleRows(runtime, request) });
    await authorizeChange(runtime, request, name, { parent: parent?.record, record: found });
    refuseUnlessAllowed(found);
    const input = body ? await body.validate(request.body, runtime.statements, { mode: 'create' }) : {};

    let result: ActionResult | undefined;
    let written: ChangeSet;
    try {
      ({ result, changes: written } = await inRequestUnitWithChanges(runtime, request, async ({ trx, changes, context }) => {
        const record = await trx(def.table).where('id', id).forUpdate().first();
        // Checked again on the locked row: another request may have moved it on meanwhile.
        refuseUnlessAllowed(record);
        await numberOnAction(trx, deps.registry, def, name, record);
        const outcome = run && ((await run(actionContext(context, def, record, input))) ?? undefined);
        await applySet({ trx, registry: deps.registry, changes }, def, action, id);
        // The record acted on changed as the action says (`validated`); what the action wrote
        // besides (a return's new operation, moves, stock) its behaviour adds itself.
        changes.add(def.name, id, action.change ?? name);
        return outcome;
      }));
    } catch (error) {
      throw clientErrorFromDb(error, def) ?? error;
    }

    // A return answers with the new operation, of the type its operation type returns with.
    const target = runtime.others(result?.resource ?? action.result ?? def.name);
    const loaded = includes.filter((include) => target.def.allowedIncludes.has(include));
    const record = await writtenRecord(target, written, result?.id ?? id, { includes: loaded, trashed: 'with' });
    const data = target.serialize(record);
    const shown = action.reveals && target.def === def ? withRevealed(def, data, record) : data;
    return reply
      .code(action.creates ? 201 : 200)
      .header('etag', recordETag(target.def, data))
      .send({ data: shown, message: action.message });
  };
}
