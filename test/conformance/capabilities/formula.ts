// A stored formula (`formula:` on a field), checked from the definition alone: a record created
// with sample values of the fields the formula names stores the formula's result, and an update of
// one of them works it out again. The expected value is worked out here from the values sent (the
// expression evaluated as JavaScript, a null operand as 0, rounded half away from zero), not by the
// engine's parser.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import type { FieldDef, ResourceDef } from '../../../engine/definition/types.ts';
import { roundTo } from '../../../src/behaviours/accounts/money.ts';
import { recordPath, type ResourceContext } from '../context.ts';
import { validPayload } from '../payloads.ts';

export const formulaFieldsOf = (def: ResourceDef) => [...def.fields.values()].filter((field) => field.formula);

const operandsOf = (def: ResourceDef, field: FieldDef) => [...new Set(field.formula!.expression.match(/[a-z][a-z0-9_]*/g) ?? [])].map((name) => def.fields.get(name)!);

/** A value of a numeric field within its bounds, with a fraction where the field keeps one; `n` makes them differ. */
function sample(field: FieldDef, n: number): number {
  let value = field.type === 'integer' ? 7 + 3 * n : 12.5 + 7.25 * n;
  if (field.maximum !== undefined) value = Math.min(value, field.maximum);
  if (field.minimum !== undefined) value = Math.max(value, field.minimum);
  return field.type === 'decimal' ? Number(value.toFixed(field.scale ?? 2)) : value;
}

function expected(field: FieldDef, names: string[], row: Record<string, unknown>): number | null {
  const evaluate = new Function(...names, `return (${field.formula!.expression});`) as (...values: number[]) => number;
  const value = evaluate(...names.map((name) => Number(row[name] ?? 0)));
  if (!Number.isFinite(value)) return null;
  return field.formula!.round === undefined ? value : roundTo(value, field.formula!.round);
}

export function formulaChecks(test: Test, context: () => ResourceContext) {
  test('formula: a new record stores the result of its values, and an update of one works it out again', async () => {
    const ctx = context();
    const { knex } = ctx.app;
    for (const field of formulaFieldsOf(ctx.def)) {
      const operands = operandsOf(ctx.def, field);
      const names = operands.map((operand) => operand.name);
      const sent = Object.fromEntries(operands.filter((operand) => operand.writable).map((operand, n) => [operand.name, sample(operand, n)]));
      const created = await ctx.client.post(ctx.listPath, { token: ctx.token, body: { ...validPayload(ctx.def, ctx.payload, 53), ...sent } });
      assert.is(created.status, 201, created.text);
      const id = created.body.data.id as number;
      const row = await knex(ctx.def.table).where('id', id).first();
      const want = expected(field, names, { ...row, ...sent });
      assert.ok(want !== null && want !== 0, `${field.name}: the sample values give a result to compare (${want})`);
      assert.is(Number(row[field.name]), want, `${field.name} stored on create`);
      if (field.output) assert.is(Number(created.body.data[field.name]), want, `${field.name} answered on create`);

      const changed = operands.find((operand) => operand.writable);
      if (!changed) continue;
      const other = sample(changed, 2) === sent[changed.name] ? (changed.minimum ?? 0) : sample(changed, 2);
      const updated = await ctx.client.put(recordPath(ctx, id), { token: ctx.token, body: { [changed.name]: other } });
      assert.is(updated.status, 200, updated.text);
      const stored = await knex(ctx.def.table).where('id', id).first();
      const again = expected(field, names, { ...stored, [changed.name]: other });
      assert.is.not(again, want, `${changed.name} changes ${field.name}`);
      assert.is(stored[field.name] === null ? null : Number(stored[field.name]), again, `${field.name} worked out again when ${changed.name} is ${other}`);
    }
  });
}
