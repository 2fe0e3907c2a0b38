// Fields written to other tables with the record: many-to-many `ids` (replace semantics) and
// nested `records` (update by id, create the new, delete the rest), all in one transaction.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import type { FieldDef } from '../../../engine/definition/types.ts';
import { ownScope } from '../../../engine/definition/scope.ts';
import { recordPath, type ResourceContext } from '../context.ts';
import { validPayload, writableFields } from '../payloads.ts';

export function carriedChecks(test: Test, context: () => ResourceContext) {
  test('ids fields: the ids sent become the whole set; [] clears it; left out keeps it', async () => {
    const ctx = context();
    for (const [index, field] of writableFields(ctx.def)
      .filter((f) => f.type === 'ids')
      .entries()) {
      const relation = ctx.def.relations.get(field.relation!)!;
      const through = relation.through!;
      const stored = async (id: number) => (await ctx.app.knex(through.table).where(through.from, id).pluck(through.to)).map(Number).sort();
      const payload = validPayload(ctx.def, ctx.payload, 21 + index);
      // A field with `by` sends another column (permission names); the pivot still stores ids.
      const expected = field.by ? [ctx.payload.referenceIds.get(relation.resource)] : payload[field.name];
      const created = await ctx.client.post(ctx.listPath, { token: ctx.token, body: payload });
      assert.is(created.status, 201, created.text);
      const id = created.body.data.id;
      assert.equal(await stored(id), expected, `${field.name} stored on create`);
      if (ctx.def.allowedIncludes.has(field.relation!)) {
        const shown = await ctx.client.get(`${recordPath(ctx, id)}?include=${field.relation}`, { token: ctx.token });
        assert.equal(
          shown.body.data[relation.outputKey].map((item: any) => item.id),
          expected,
          `include=${field.relation}`,
        );
      }
      const untouched = await ctx.client.put(recordPath(ctx, id), { token: ctx.token, body: {} });
      assert.is(untouched.status, 200);
      assert.equal(await stored(id), expected, 'left out: unchanged');
      const cleared = await ctx.client.put(recordPath(ctx, id), { token: ctx.token, body: { [field.name]: [] } });
      assert.is(cleared.status, 200);
      assert.equal(await stored(id), [], '[] clears');
    }
  });

  test('records fields: written with the record; on update by id, new ones created, left-out ones removed', async () => {
    const ctx = context();
    for (const field of writableFields(ctx.def).filter((f) => f.type === 'records')) {
      const relation = ctx.def.relations.get(field.relation!)!;
      const child = ctx.registry.get(relation.resource);
      // The owner's children of this kind (a document's product lines, not its computed lines).
      const children = (id: number) => ctx.app.knex(child.table).where(relation.foreignKey, id).where(ownScope(child)).orderBy('id');
      const entries = [validPayload(child, ctx.payload, 31), validPayload(child, ctx.payload, 32)];
      const created = await ctx.client.post(ctx.listPath, { token: ctx.token, body: { ...validPayload(ctx.def, ctx.payload, 30), [field.name]: entries } });
      assert.is(created.status, 201, created.text);
      const id = created.body.data.id;
      const [first, second] = await children(id);
      assert.ok(first && second, `${field.name}: two children stored`);

      const replacement = validPayload(child, ctx.payload, 33);
      const updated = await ctx.client.put(recordPath(ctx, id), { token: ctx.token, body: { [field.name]: [{ id: first.id }, replacement] } });
      assert.is(updated.status, 200, updated.text);
      const after = await children(id);
      assert.is(after.length, 2, 'kept one, added one');
      assert.is(after[0].id, first.id, 'the entry with an id is the same child');
      assert.not.ok(
        after.some((row: any) => row.id === second.id),
        'the left-out child is removed',
      );

      const untouched = await ctx.client.put(recordPath(ctx, id), { token: ctx.token, body: {} });
      assert.is(untouched.status, 200);
      assert.is((await children(id)).length, 2, 'left out: unchanged');
    }
  });

  test('records fields: an invalid entry names its place (field.index.name) and writes nothing', async () => {
    const ctx = context();
    for (const field of writableFields(ctx.def).filter((f) => f.type === 'records')) {
      const child = ctx.registry.get(ctx.def.relations.get(field.relation!)!.resource);
      const required = writableFields(child).find((f: FieldDef) => f.required);
      if (!required) continue;
      const bad = validPayload(child, ctx.payload, 41);
      delete bad[required.name];
      const before = await ctx.app.knex(ctx.def.table).count({ count: '*' }).first();
      const response = await ctx.client.post(ctx.listPath, {
        token: ctx.token,
        body: { ...validPayload(ctx.def, ctx.payload, 40), [field.name]: [validPayload(child, ctx.payload, 42), bad] },
      });
      assert.is(response.status, 422, response.text);
      const key = `${field.name}.1.${required.name}`;
      assert.equal(response.body.errors[key], [`The ${field.name}.1.${required.label} field is required.`]);
      const after = await ctx.app.knex(ctx.def.table).count({ count: '*' }).first();
      assert.is(Number(after!.count), Number(before!.count), 'no record written');
    }
  });
}
