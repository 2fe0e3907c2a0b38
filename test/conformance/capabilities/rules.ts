// The workflow vocabulary, checked from the definition alone: a document number (`sequence`) is
// the prefix and the padded next number of its counter, one more for each record created.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceDef } from '../../../engine/definition/types.ts';
import { DEFAULT_PADDING, sequenceFields } from '../../../engine/rules/sequence.ts';
import type { ResourceContext } from '../context.ts';
import { validPayload } from '../payloads.ts';

/** The fields numbered when their record is created. */
export const numberedOnCreate = (def: ResourceDef) => sequenceFields(def).filter((field) => (field.sequence!.on ?? 'create') === 'create');

const literal = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

export function sequenceChecks(test: Test, context: () => ResourceContext) {
  test('sequence: each new record takes its prefix and the next number of its counter, padded', async () => {
    const ctx = context();
    const created: Array<Record<string, any>> = [];
    for (const n of [37, 38]) {
      const response = await ctx.client.post(ctx.listPath, { token: ctx.token, body: validPayload(ctx.def, ctx.payload, n) });
      assert.is(response.status, 201, response.text);
      created.push(await ctx.app.knex(ctx.def.table).where('id', response.body.data.id).first());
    }
    for (const field of numberedOnCreate(ctx.def)) {
      const sequence = field.sequence!;
      // A placeholder's value is whatever the record gives: any text without digits at its end.
      const prefix = literal(sequence.prefix ?? '').replace(/\{[^}]+\}/g, '.*?');
      const shape = new RegExp(`^(${prefix})(\\d{${sequence.padding ?? DEFAULT_PADDING},})$`);
      const [first, second] = created.map((row) => shape.exec(String(row[field.name])));
      assert.ok(first && second, `${field.name}: ${created.map((row) => row[field.name]).join(', ')} match ${shape}`);
      if (first![1] === second![1] && created[0]!.company_id === created[1]!.company_id)
        assert.is(Number(second![2]), Number(first![2]) + 1, `${field.name}: the next number, no gap`);
    }
  });
}
