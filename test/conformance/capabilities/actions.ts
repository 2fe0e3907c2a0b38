// Workflow actions, for every action a definition declares: a missing record is a 404, the
// action's permission is required, and its declared guard (`when`) refuses a record in any other
// state with 422 and the declared message, changing nothing.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { userWith } from '../../helpers/access.ts';
import { API } from '../../helpers/app.ts';
import { liveRows, recordPath, type ResourceContext } from '../context.ts';
import { validPayload } from '../payloads.ts';

/** A record to act on: a fresh one when the resource can create, else an existing one. */
async function target(ctx: ResourceContext, n: number): Promise<number> {
  if (ctx.def.operations.has('create')) {
    const created = await ctx.client.post(ctx.listPath, { token: ctx.token, body: validPayload(ctx.def, ctx.payload, n) });
    assert.is(created.status, 201, created.text);
    return created.body.data.id;
  }
  const row = await liveRows(ctx).orderBy('id').first('id');
  assert.ok(row, 'a record to act on');
  return Number(row.id);
}

export function actionChecks(test: Test, context: () => ResourceContext) {
  test('actions: a missing record → 404; without the action’s permission → 403', async () => {
    const ctx = context();
    for (const action of ctx.def.actions.values()) {
      if (action.on === 'collection') continue; // collectionActionChecks
      const missing = await ctx.client.post(`${recordPath(ctx, 99999999)}/${action.name}`, { token: ctx.token });
      assert.is(missing.status, 404, `${action.name} on a missing record`);
      const id = await target(ctx, 200);
      const before = await ctx.app.knex(ctx.def.table).where('id', id).first();
      for (const permission of ctx.def.access.permissions[action.name]!) {
        const { token } = await userWith(ctx.app, { allBut: [permission] });
        const refused = await ctx.client.post(`${recordPath(ctx, id)}/${action.name}`, { token });
        assert.is(refused.status, 403, `${action.name} without ${permission}`);
      }
      assert.equal(await ctx.app.knex(ctx.def.table).where('id', id).first(), before, 'nothing changed');
      const { token } = await userWith(ctx.app, { only: ctx.def.access.permissions[action.name]! });
      const allowed = await ctx.client.post(`${recordPath(ctx, id)}/${action.name}`, { token });
      assert.ok([action.creates ? 201 : 200, 422].includes(allowed.status), `${action.name} with only its permission: ${allowed.status} ${allowed.text}`);
    }
  });
}

/** Registered only for resources with a guarded action. */
export function guardChecks(test: Test, context: () => ResourceContext) {
  test('actions: the declared guard refuses a record in another state (422 {message}), changing nothing', async () => {
    const ctx = context();
    for (const action of ctx.def.actions.values()) {
      if (!action.when) continue; // actions without a guard have nothing to refuse
      const id = await target(ctx, 210);
      for (const [column, allowed] of Object.entries(action.when)) {
        const other = ctx.def.fields.get(column)?.enum?.find((value) => !allowed.includes(value)) ?? `not-${allowed[0]}`;
        await ctx.app
          .knex(ctx.def.table)
          .where('id', id)
          .update({ [column]: other });
        const before = await ctx.app.knex(ctx.def.table).where('id', id).first();
        const response = await ctx.client.post(`${recordPath(ctx, id)}/${action.name}`, { token: ctx.token });
        assert.is(response.status, 422, `${action.name} when ${column} is ${other}`);
        assert.equal(response.body, { message: action.refused });
        assert.equal(await ctx.app.knex(ctx.def.table).where('id', id).first(), before, 'nothing changed');
      }
    }
  });
}

/**
 * An action on a nested collection (POST on its path): a missing parent is a 404, the action's
 * permission is required, and the answer is 200 {data: [the parent's live records], message}.
 */
export function collectionActionChecks(test: Test, context: () => ResourceContext) {
  test('collection actions: a missing parent → 404; without the permission → 403; 200 with every live record', async () => {
    const ctx = context();
    const parent = ctx.def.parent!;
    for (const action of ctx.def.actions.values()) {
      if (action.on !== 'collection') continue;
      const elsewhere = `${API}${ctx.def.path}`.replace(`{${parent.param}}`, '99999999');
      assert.is((await ctx.client.post(elsewhere, { token: ctx.token })).status, 404, `${action.name} under a missing parent`);
      for (const permission of ctx.def.access.permissions[action.name]!) {
        const { token } = await userWith(ctx.app, { allBut: [permission] });
        assert.is((await ctx.client.post(ctx.listPath, { token })).status, 403, `${action.name} without ${permission}`);
      }
      const { token } = await userWith(ctx.app, { only: ctx.def.access.permissions[action.name]! });
      const allowed = await ctx.client.post(ctx.listPath, { token });
      assert.is(allowed.status, 200, allowed.text);
      assert.is(allowed.body.message, action.message);
      const live = (await liveRows(ctx).orderBy('id').pluck('id')).map(Number);
      assert.equal(
        allowed.body.data.map((row: { id: number }) => row.id).sort((a: number, b: number) => a - b),
        live,
        'every live record of the parent',
      );
    }
  });
}
