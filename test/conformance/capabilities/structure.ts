// The structure vocabulary, checked from the definition alone: a record created without an
// `append` field goes last (the highest value of its table + 1), and a value sent is kept.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceDef } from '../../../engine/definition/types.ts';
import { MAX_SORT } from '../../../engine/rules/append.ts';
import type { ResourceContext } from '../context.ts';
import { validPayload } from '../payloads.ts';

export function structureRules(def: ResourceDef) {
  return { appended: [...def.fields.values()].filter((field) => field.append) };
}

export function hasStructureRules(def: ResourceDef): boolean {
  return Object.values(structureRules(def)).some((fields) => fields.length > 0);
}

export function structureChecks(test: Test, context: () => ResourceContext) {
  const create = async (ctx: ResourceContext, body: Record<string, unknown>) => {
    const response = await ctx.client.post(ctx.listPath, { token: ctx.token, body });
    assert.is(response.status, 201, response.text);
    return (await ctx.app.knex(ctx.def.table).where('id', response.body.data.id).first()) as Record<string, any>;
  };

  test('append: a record created without the field goes last (highest + 1); a value sent is kept', async () => {
    const ctx = context();
    for (const field of structureRules(ctx.def).appended) {
      for (const n of [40, 41]) {
        const highest = Number((await ctx.app.knex(ctx.def.table).max({ highest: field.name }).first())?.highest ?? 0);
        const payload = validPayload(ctx.def, ctx.payload, n);
        delete payload[field.name];
        const row = await create(ctx, payload);
        assert.is(Number(row[field.name]), Math.min(highest + 1, MAX_SORT), `${field.name} after ${highest}`);
      }
      if (field.writable) {
        const row = await create(ctx, { ...validPayload(ctx.def, ctx.payload, 42), [field.name]: 0 });
        assert.is(Number(row[field.name]), 0, `${field.name} sent is kept`);
      }
    }
  });
}
