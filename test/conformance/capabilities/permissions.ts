// Access control, for every declared operation of every resource: a user who lacks any one of
// the permissions the operation needs gets 403 and changes nothing; a user who holds only those
// permissions succeeds. And the original's order of checks: 401, 422, 404, then 403.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Operation } from '../../../engine/definition/format.ts';
import { userWith } from '../../helpers/access.ts';
import { liveRows, recordPath, type ResourceContext } from '../context.ts';
import { validPayload } from '../payloads.ts';

const FORBIDDEN = { message: 'This action is unauthorized.' };

/** A body the operation accepts; ids fields are left out (handing out roles or permissions needs their permissions too). */
function payload(ctx: ResourceContext, n: number): Record<string, unknown> {
  const body = validPayload(ctx.def, ctx.payload, n);
  for (const field of ctx.def.fields.values()) if (field.type === 'ids' && !field.minItems) delete body[field.name];
  return body;
}

export function permissionChecks(test: Test, context: () => ResourceContext) {
  let n = 100;
  /** The id of a record to act on: a fresh one when the resource can create, else an existing one. */
  const target = async (ctx: ResourceContext, trashed = false): Promise<number> => {
    if (!ctx.def.operations.has('create')) {
      // A resource whose records its routes do not create (a product's variants) restores one it
      // archived before, or archives one of its live records: no record is used up.
      if (trashed) {
        const archived = await ctx.app
          .knex(ctx.def.table)
          .where(ctx.def.parent ? { [ctx.def.parent.foreignKey]: ctx.parentId } : {})
          .whereNotNull('deleted_at')
          .orderBy('id')
          .first('id');
        if (archived) return Number(archived.id);
      }
      const row = await liveRows(ctx).orderBy('id').first('id');
      assert.ok(row, `${ctx.def.name}: a record to act on`);
      if (trashed) assert.is((await ctx.client.delete(recordPath(ctx, row.id), { token: ctx.token })).status, 200);
      return Number(row.id);
    }
    const created = await ctx.client.post(ctx.listPath, { token: ctx.token, body: payload(ctx, n++) });
    assert.is(created.status, 201, created.text);
    if (trashed) assert.is((await ctx.client.delete(recordPath(ctx, created.body.data.id), { token: ctx.token })).status, 200);
    return created.body.data.id;
  };

  /** Sends the operation's request as `token`; returns the status and, for writes, a look at the row after. */
  const attempt = async (ctx: ResourceContext, operation: Operation, token: string) => {
    const rows = () =>
      ctx.app
        .knex(ctx.def.table)
        .count({ n: '*' })
        .first()
        .then((row) => Number(row!.n));
    switch (operation) {
      case 'list':
        return { response: await ctx.client.get(ctx.listPath, { token }), expected: 200 };
      case 'show':
        return { response: await ctx.client.get(recordPath(ctx, await target(ctx)), { token }), expected: 200 };
      case 'create': {
        const before = await rows();
        const response = await ctx.client.post(ctx.listPath, { token, body: payload(ctx, n++) });
        return { response, expected: 201, unchanged: async () => assert.is(await rows(), before, 'nothing was created') };
      }
      case 'update': {
        const id = await target(ctx);
        const before = await ctx.app.knex(ctx.def.table).where('id', id).first();
        const response = await ctx.client.put(recordPath(ctx, id), { token, body: {} });
        return { response, expected: 200, unchanged: async () => assert.equal(await ctx.app.knex(ctx.def.table).where('id', id).first(), before) };
      }
      case 'delete':
      case 'forceDelete': {
        const id = await target(ctx, false);
        const before = await ctx.app.knex(ctx.def.table).where('id', id).first();
        const url = operation === 'delete' ? recordPath(ctx, id) : `${recordPath(ctx, id)}/force`;
        const response = await ctx.client.delete(url, { token });
        return { response, expected: 200, unchanged: async () => assert.equal(await ctx.app.knex(ctx.def.table).where('id', id).first(), before) };
      }
      case 'restore': {
        const id = await target(ctx, true);
        const response = await ctx.client.post(`${recordPath(ctx, id)}/restore`, { token });
        const deletedAt = async () => (await ctx.app.knex(ctx.def.table).where('id', id).first('deleted_at')).deleted_at;
        return { response, expected: 200, unchanged: async () => assert.ok(await deletedAt(), 'still trashed') };
      }
    }
  };

  test('permissions: without any one of an operation’s permissions → 403 and nothing changes; with only them → allowed', async () => {
    const ctx = context();
    for (const operation of ctx.def.operations) {
      const needed = ctx.def.access.permissions[operation] ?? [];
      assert.ok(needed.length > 0, `${operation} names its permissions`);
      for (const missing of needed) {
        const { token } = await userWith(ctx.app, { allBut: [missing] });
        const { response, unchanged } = await attempt(ctx, operation, token);
        assert.is(response.status, 403, `${operation} without ${missing}: ${response.text}`);
        assert.equal(response.body, FORBIDDEN);
        await unchanged?.();
      }
      const { token } = await userWith(ctx.app, { only: needed });
      const { response, expected } = await attempt(ctx, operation, token);
      assert.is(response.status, expected, `${operation} with only ${needed.join(', ')}: ${response.text}`);
    }
  });

  test('permissions: checks run in the original order (422 before 404 before 403)', async () => {
    const ctx = context();
    const { token } = await userWith(ctx.app, { only: [] });
    if (ctx.def.operations.has('create')) {
      const required = [...ctx.def.fields.values()].some((field) => field.required && field.writable);
      const invalid = await ctx.client.post(ctx.listPath, { token, body: required ? {} : { id: 1 } });
      assert.is(invalid.status, required ? 422 : 403, 'an invalid body is a 422 even without permission');
    }
    if (ctx.def.operations.has('show')) {
      assert.is((await ctx.client.get(recordPath(ctx, 99999999), { token })).status, 404, 'a missing record is a 404 even without permission');
    }
    if (ctx.def.operations.has('update')) {
      assert.is((await ctx.client.put(recordPath(ctx, 99999999), { token, body: {} })).status, 404);
    }
    if (ctx.def.operations.has('list')) assert.is((await ctx.client.get(ctx.listPath, { token })).status, 403);
  });
}
