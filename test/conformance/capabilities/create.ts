import type { Test } from 'uvu';
import type { ResourceDef } from '../../../engine/index.ts';
import * as assert from 'uvu/assert';
import { recordPath, type ResourceContext } from '../context.ts';
import { echoedFields, expectedOutput, invalidValues, validPayload, writableFields } from '../payloads.ts';

export function createChecks(test: Test, context: () => ResourceContext) {
  test('create: 201, the contract message, the values sent, stored', async () => {
    const ctx = context();
    for (let n = 0; n < 3; n++) {
      const payload = validPayload(ctx.def, ctx.payload, n);
      const response = await ctx.client.post(ctx.listPath, { token: ctx.token, body: payload });
      assert.is(response.status, 201, response.text);
      assert.is(response.body.message, ctx.def.messages.created);
      const data = response.body.data;
      assert.type(data.id, 'number');
      for (const field of echoedFields(ctx.def)) {
        // The path's parent wins over a parent id sent in the body.
        const sent = field.name === ctx.def.parent?.foreignKey ? ctx.parentId : payload[field.name];
        assert.equal(data[field.name], expectedOutput(field, sent), `${field.name}`);
      }
      if (ctx.def.parent) assert.is(data[ctx.def.parent.foreignKey], ctx.parentId);
      if (ctx.def.creator) assert.is(data.creator_id, (await ctx.app.knex('users').where('email', 'admin@example.com').first('id')).id);
      if (ctx.def.timestamps) assert.match(data.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
      // Fields shown once (a secret): in the create's answer, stored, and in no show.
      const revealed = [...ctx.def.fields.values()].filter((field) => field.revealed).map((field) => field.name);
      for (const name of revealed) {
        assert.type(data[name], 'string', `${name} is shown by the create`);
        assert.is((await ctx.app.knex(ctx.def.table).where('id', data.id).first(name))[name], data[name], `${name} is stored`);
      }
      const shown = await ctx.client.get(recordPath(ctx, data.id), { token: ctx.token });
      for (const name of revealed) assert.not.ok(name in shown.body.data, `${name} is not shown again`);
      const record = Object.fromEntries(Object.entries(data).filter(([name]) => !revealed.includes(name)));
      assert.equal(shown.body.data, record, 'show returns what create returned');
      ctx.created.push(record);
    }
  });

  test('create: each required field missing → 422 naming it, nothing written', async () => {
    const ctx = context();
    const before = await countRows(ctx);
    for (const field of writableFields(ctx.def).filter((f) => f.required)) {
      const payload = validPayload(ctx.def, ctx.payload, 7);
      delete payload[field.name];
      const response = await ctx.client.post(ctx.listPath, { token: ctx.token, body: payload });
      assert.is(response.status, 422, `${field.name} missing: ${response.text}`);
      assert.equal(response.body.errors[field.name], [`The ${field.label} field is required.`]);
      assert.is(response.body.message, `The ${field.label} field is required.`);
      const asNull = await ctx.client.post(ctx.listPath, { token: ctx.token, body: { ...payload, [field.name]: null } });
      assert.is(asNull.status, 422, `${field.name} null`);
    }
    assert.is(await countRows(ctx), before);
  });

  test('create: each field limit (length, range, format, choice, reference, type) → 422, nothing written', async () => {
    const ctx = context();
    const before = await countRows(ctx);
    for (const field of writableFields(ctx.def)) {
      for (const invalid of invalidValues(field, ctx.payload)) {
        const payload: Record<string, unknown> = { ...validPayload(ctx.def, ctx.payload, 8), [field.name]: invalid.value };
        // Without the field it excludes (a due date when the payment term is checked), so that its error is the only one.
        for (const other of writableFields(ctx.def)) if (other.excludes === field.name) delete payload[other.name];
        const response = await ctx.client.post(ctx.listPath, { token: ctx.token, body: payload });
        assert.is(response.status, 422, `${field.name} ${invalid.rule}: ${response.text}`);
        assert.equal(response.body.errors, { [invalid.key ?? field.name]: [invalid.message] }, `${field.name} ${invalid.rule}`);
      }
    }
    assert.is(await countRows(ctx), before);
  });
}

/** Registered only where a plain string field has a maximum length. */
export function atLengthChecks(test: Test, context: () => ResourceContext) {
  test('create: a string exactly at its maximum length is accepted', async () => {
    const ctx = context();
    const field = atLengthField(ctx.def);
    if (!field) throw new Error(`${ctx.def.name} has no plain string field with a maximum length`);
    const payload = { ...validPayload(ctx.def, ctx.payload, 9), [field.name]: 'y'.repeat(field.maxLength!) };
    const response = await ctx.client.post(ctx.listPath, { token: ctx.token, body: payload });
    assert.is(response.status, 201, response.text);
    assert.is(response.body.data[field.name], 'y'.repeat(field.maxLength!));
    ctx.created.push(response.body.data);
  });
}

async function countRows(ctx: ResourceContext): Promise<number> {
  const row = await ctx.app.knex(ctx.def.table).count({ count: '*' }).first();
  return Number(row!.count);
}

/** The first plain string field with a maximum length (the at-the-limit check needs one). */
export function atLengthField(def: ResourceDef) {
  return writableFields(def).find((f) => f.maxLength !== undefined && !f.enum && !f.format && f.type === 'string');
}
