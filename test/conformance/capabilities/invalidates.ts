// A definition's `invalidates`, checked from the definition alone: every write the resource offers
// over HTTP (create, update, delete, restore, force delete) calls each invalidator it names, seen
// through what that invalidator leaves in the database.
import type { Knex } from 'knex';
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { recordPath, type ResourceContext } from '../context.ts';
import { validPayload } from '../payloads.ts';

/** How each invalidator the application registers (src/behaviours/index.ts) is seen: a counter it raises. */
const observed: Record<string, (knex: Knex) => Promise<number>> = {
  access: async (knex) => Number((await knex('access_state').where('id', 1).first('version')).version),
};

export function invalidatesChecks(test: Test, context: () => ResourceContext) {
  test('invalidates: create, update, delete, restore and force delete each call the invalidators named', async () => {
    const ctx = context();
    const { def } = ctx;
    const { knex } = ctx.app;
    const counters = def.invalidates.map((name) => {
      const read = observed[name];
      assert.ok(read, `no way to observe the invalidator "${name}": add it to test/conformance/capabilities/invalidates.ts`);
      return { name, read };
    });
    const calls = async <T extends { status: number; text: string }>(write: string, run: () => Promise<T>, status = 200): Promise<T> => {
      const before = await Promise.all(counters.map(({ read }) => read(knex)));
      const response = await run();
      assert.is(response.status, status, `${write}: ${response.text}`);
      for (const [index, { name, read }] of counters.entries()) assert.ok((await read(knex)) > before[index]!, `${write} calls the invalidator "${name}"`);
      return response;
    };

    const created = await calls('create', () => ctx.client.post(ctx.listPath, { token: ctx.token, body: validPayload(def, ctx.payload, 61) }), 201);
    const id = created.body.data.id as number;
    if (def.operations.has('update')) await calls('update', () => ctx.client.put(recordPath(ctx, id), { token: ctx.token, body: validPayload(def, ctx.payload, 62) }));
    if (!def.operations.has('delete')) return;
    await calls('delete', () => ctx.client.delete(recordPath(ctx, id), { token: ctx.token }));
    if (def.operations.has('restore')) await calls('restore', () => ctx.client.post(`${recordPath(ctx, id)}/restore`, { token: ctx.token }));
    if (def.operations.has('forceDelete')) await calls('force delete', () => ctx.client.delete(`${recordPath(ctx, id)}/force`, { token: ctx.token }));
  });
}
