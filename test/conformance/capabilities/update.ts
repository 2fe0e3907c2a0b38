import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { recordPath, type ResourceContext } from '../context.ts';
import { echoedFields, expectedOutput, invalidValues, rangePartner, sampleValue, writableFields } from '../payloads.ts';

export function updateChecks(test: Test, context: () => ResourceContext) {
  test('update: PUT changes only the fields sent', async () => {
    const ctx = context();
    const record = ctx.created[0]!;
    for (const field of echoedFields(ctx.def).filter((f) => f.name !== ctx.def.parent?.foreignKey)) {
      const before = (await ctx.client.get(recordPath(ctx, record.id), { token: ctx.token })).body.data;
      const value = sampleValue(field, ctx.payload, 11, ctx.def);
      // A date range's start and end are sent together (the same day: a range of one day).
      const partner = rangePartner(ctx.def, field);
      const body = { [field.name]: value, ...(partner && { [partner.name]: sampleValue(partner, ctx.payload, 11, ctx.def) }) };
      const response = await ctx.client.put(recordPath(ctx, record.id), { token: ctx.token, body });
      assert.is(response.status, 200, `${field.name}: ${response.text}`);
      assert.is(response.body.message, ctx.def.messages.updated);
      const after = response.body.data;
      assert.equal(after[field.name], expectedOutput(field, value), field.name);
      for (const other of echoedFields(ctx.def)) {
        // A field that excludes another replaces it (a payment term replaces a due date).
        if (other.name !== field.name && other.name !== field.excludes && other.name !== partner?.name)
          assert.equal(after[other.name], before[other.name], `${other.name} unchanged when ${field.name} is sent`);
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

  test('update: a date range is sent whole, its start not after its end → else 422 on the right field', async () => {
    const ctx = context();
    const record = ctx.created[0]!;
    const before = (await ctx.client.get(recordPath(ctx, record.id), { token: ctx.token })).body.data;
    for (const start of writableFields(ctx.def).filter((field) => field.until)) {
      const end = ctx.def.fields.get(start.until!)!;
      const [early, late] = [sampleValue(start, ctx.payload, 1, ctx.def), sampleValue(end, ctx.payload, 5, ctx.def)];
      const put = (body: Record<string, unknown>) => ctx.client.put(recordPath(ctx, record.id), { token: ctx.token, body });
      assert.equal((await put({ [start.name]: early })).body.errors, { [end.name]: [`The ${end.label} field is required when ${start.label} is present.`] });
      assert.equal((await put({ [end.name]: late })).body.errors, { [start.name]: [`The ${start.label} field is required when ${end.label} is present.`] });
      const reversed = await put({ [start.name]: late, [end.name]: early });
      assert.is(reversed.status, 422);
      assert.equal(reversed.body.errors, {
        [start.name]: [`The ${start.label} field must be a date before or equal to ${end.label}.`],
        [end.name]: [`The ${end.label} field must be a date after or equal to ${start.label}.`],
      });
    }
    assert.equal((await ctx.client.get(recordPath(ctx, record.id), { token: ctx.token })).body.data, before);
  });

  test('update: unknown id → 404', async () => {
    const ctx = context();
    const response = await ctx.client.put(recordPath(ctx, 99999999), { token: ctx.token, body: {} });
    assert.is(response.status, 404);
  });
}
