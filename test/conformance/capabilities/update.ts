import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { recordPath, type ResourceContext } from '../context.ts';
import { echoedFields, expectedOutput, invalidValues, sampleValue, writableFields } from '../payloads.ts';

export function updateChecks(test: Test, context: () => ResourceContext) {
  test('update: PUT changes only the fields sent', async () => {
    const ctx = context();
    const record = ctx.created[0]!;
    for (const field of echoedFields(ctx.def).filter((f) => f.name !== ctx.def.parent?.foreignKey)) {
      const before = (await ctx.client.get(recordPath(ctx, record.id), { token: ctx.token })).body.data;
      const value = sampleValue(field, ctx.payload, 11, ctx.def);
      const response = await ctx.client.put(recordPath(ctx, record.id), { token: ctx.token, body: { [field.name]: value } });
      assert.is(response.status, 200, `${field.name}: ${response.text}`);
      assert.is(response.body.message, ctx.def.messages.updated);
      const after = response.body.data;
      assert.equal(after[field.name], expectedOutput(field, value), field.name);
      for (const other of echoedFields(ctx.def)) {
        // A field that excludes another replaces it (a payment term replaces a due date).
        if (other.name !== field.name && other.name !== field.excludes) assert.equal(after[other.name], before[other.name], `${other.name} unchanged when ${field.name} is sent`);
      }
      assert.equal((await ctx.client.get(recordPath(ctx, record.id), { token: ctx.token })).body.data, after, 'stored');
    }
  });

  test('update: an invalid value → 422 and the record is unchanged', async () => {
    const ctx = context();
    const record = ctx.created[0]!;
    const before = (await ctx.client.get(recordPath(ctx, record.id), { token: ctx.token })).body.data;
    for (const field of writableFields(ctx.def)) {
      for (const invalid of invalidValues(field, ctx.payload)) {
        const response = await ctx.client.put(recordPath(ctx, record.id), { token: ctx.token, body: { [field.name]: invalid.value } });
        assert.is(response.status, 422, `${field.name} ${invalid.rule}`);
        assert.equal(response.body.errors, { [invalid.key ?? field.name]: [invalid.message] });
      }
      if (field.required) {
        const cleared = await ctx.client.put(recordPath(ctx, record.id), { token: ctx.token, body: { [field.name]: null } });
        assert.is(cleared.status, 422, `${field.name} cannot be cleared`);
      }
    }
    assert.equal((await ctx.client.get(recordPath(ctx, record.id), { token: ctx.token })).body.data, before);
  });

  test('update: unknown id → 404', async () => {
    const ctx = context();
    const response = await ctx.client.put(recordPath(ctx, 99999999), { token: ctx.token, body: {} });
    assert.is(response.status, 404);
  });
}
