// Every list a body may carry has a bound, stated in the API reference: one entry more is a 422
// naming the field, answered before anything is written.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { validPayload } from '../payloads.ts';
import type { ResourceContext } from '../context.ts';

export function boundChecks(test: Test, context: () => ResourceContext) {
  test('lists: every strings, ids and records field has a bound; one entry more → 422, nothing written', async () => {
    const ctx = context();
    const rows = async () => Number((await ctx.app.knex(ctx.def.table).count({ n: '*' }).first())!.n);
    for (const field of ctx.def.fields.values()) {
      if (!field.writable || !['strings', 'ids', 'records'].includes(field.type)) continue;
      assert.ok(field.maxItems !== undefined && field.maxItems > 0, `${field.name} has a bound`);
      const payload = validPayload(ctx.def, ctx.payload, 60);
      const one = (payload[field.name] as unknown[])[0];
      // Distinct ids: repeats would count once.
      payload[field.name] = Array.from({ length: field.maxItems! + 1 }, (_, i) => (field.type === 'ids' && !field.by ? 90000000 + i : field.type === 'ids' ? `no-such-${i}` : one));
      const before = await rows();
      const response = await ctx.client.post(ctx.listPath, { token: ctx.token, body: payload });
      assert.is(response.status, 422, `${field.name}: ${response.text.slice(0, 200)}`);
      assert.equal(response.body.errors, { [field.name]: [`The ${field.label} field must not have more than ${field.maxItems} items.`] });
      assert.is(await rows(), before);
    }
  });
}
