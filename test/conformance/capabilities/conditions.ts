// Conditions between a record's fields, checked from the definition alone: a field required while
// the record has some values (`requiredWhen`) is refused empty on create and on update (422 on the
// field, nothing written) and accepted otherwise; the end of a range (`notBefore`) sent before the
// start sent with it is a 422 on the end, nothing written, and the same day is accepted.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import type { FieldDef, ResourceDef } from '../../../engine/definition/types.ts';
import { recordPath, type ResourceContext } from '../context.ts';
import { validPayload } from '../payloads.ts';

const conditioned = (def: ResourceDef): FieldDef[] => [...def.fields.values()].filter((field) => field.writable && (field.requiredWhen || field.notBefore));
export const hasConditions = (def: ResourceDef) => conditioned(def).length > 0;

/** As the engine words it when the definition gives no message. */
function requiredMessage(def: ResourceDef, field: FieldDef): string {
  if (field.requiredWhen!.message) return field.requiredWhen!.message;
  const [column, values] = Object.entries(field.requiredWhen!.when)[0]!;
  return `The ${field.label} field is required when ${def.fields.get(column)!.label} is ${values.map((value) => String(value).replace(/_/g, ' ')).join(' or ')}.`;
}

export function conditionChecks(test: Test, context: () => ResourceContext) {
  test('requiredWhen / notBefore: refused with 422 on the field and nothing written; accepted otherwise', async () => {
    const ctx = context();
    const { knex } = ctx.app;
    const count = async () => Number((await knex(ctx.def.table).count({ n: '*' }).first())!.n);
    const refuse = async (label: string, request: Promise<{ status: number; body: any; text: string }>, key: string, message: string) => {
      const response = await request;
      assert.is(response.status, 422, `${label}: ${response.text}`);
      assert.equal(response.body.errors, { [key]: [message] }, label);
    };
    for (const field of conditioned(ctx.def)) {
      if (field.requiredWhen) {
        const when = Object.fromEntries(Object.entries(field.requiredWhen.when).map(([column, values]) => [column, values[0]]));
        const writable = Object.keys(when).every((column) => ctx.def.fields.get(column)?.writable);
        const body = { ...validPayload(ctx.def, ctx.payload, 45), ...(writable ? when : {}) };
        const rows = await count();
        if (writable)
          await refuse(
            `${field.name} left out on create`,
            ctx.client.post(ctx.listPath, { token: ctx.token, body: { ...body, [field.name]: null } }),
            field.name,
            requiredMessage(ctx.def, field),
          );
        assert.is(await count(), rows, `${field.name}: nothing created`);
        const created = await ctx.client.post(ctx.listPath, { token: ctx.token, body });
        assert.is(created.status, 201, created.text);
        const id = created.body.data.id as number;
        if (!writable) await knex(ctx.def.table).where('id', id).update(when);
        const before = await knex(ctx.def.table).where('id', id).first();
        await refuse(
          `${field.name} cleared on update`,
          ctx.client.put(recordPath(ctx, id), { token: ctx.token, body: { [field.name]: null } }),
          field.name,
          requiredMessage(ctx.def, field),
        );
        assert.equal(await knex(ctx.def.table).where('id', id).first(), before, `${field.name}: nothing changed`);
        // Another value of what requires it: the field may be empty.
        const [column, values] = Object.entries(field.requiredWhen.when)[0]!;
        const other = ctx.def.fields.get(column)!.enum?.find((value) => !values.map(String).includes(value));
        if (other !== undefined && ctx.def.fields.get(column)!.writable) {
          const cleared = await ctx.client.put(recordPath(ctx, id), { token: ctx.token, body: { [column]: other, [field.name]: null } });
          assert.is(cleared.status, 200, `${field.name} empty when ${column} is ${other}: ${cleared.text}`);
          assert.is((await knex(ctx.def.table).where('id', id).first())[field.name], null);
        }
      }
      if (field.notBefore) {
        const start = ctx.def.fields.get(field.notBefore)!;
        const body = validPayload(ctx.def, ctx.payload, 46);
        const rows = await count();
        const message = `The ${field.label} field must be a date after or equal to ${start.label}.`;
        await refuse(
          `${field.name} before ${start.name}`,
          ctx.client.post(ctx.listPath, { token: ctx.token, body: { ...body, [start.name]: '2025-03-10', [field.name]: '2025-03-09' } }),
          field.name,
          message,
        );
        assert.is(await count(), rows, `${field.name}: nothing created`);
        const created = await ctx.client.post(ctx.listPath, { token: ctx.token, body: { ...body, [start.name]: '2025-03-10', [field.name]: '2025-03-10' } });
        assert.is(created.status, 201, `the same day: ${created.text}`);
        const id = created.body.data.id as number;
        const before = await knex(ctx.def.table).where('id', id).first();
        await refuse(
          `${field.name} before ${start.name} on update`,
          ctx.client.put(recordPath(ctx, id), { token: ctx.token, body: { [start.name]: '2025-04-01', [field.name]: '2025-03-31' } }),
          field.name,
          message,
        );
        assert.equal(await knex(ctx.def.table).where('id', id).first(), before, `${field.name}: nothing changed`);
      }
    }
  });
}
