// Records created with their owner (`createWith` on a hasMany relation), checked from the
// definition alone: a new record of every resource that declares them has those related records,
// with the values declared, shown by the include and stored in the related table; a refused
// create leaves none behind.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import type { RelationDef, ResourceDef } from '../../../engine/definition/types.ts';
import { recordPath, type ResourceContext } from '../context.ts';
import { validPayload } from '../payloads.ts';

export const createdWith = (def: ResourceDef): RelationDef[] => [...def.relations.values()].filter((relation) => relation.createWith);

export function createdWithChecks(test: Test, context: () => ResourceContext) {
  test('createWith: a new record gets the related records declared, as declared; a refused create none', async () => {
    const ctx = context();
    const { knex } = ctx.app;
    const created = await ctx.client.post(ctx.listPath, { token: ctx.token, body: validPayload(ctx.def, ctx.payload, 43) });
    assert.is(created.status, 201, created.text);
    const id = created.body.data.id as number;
    for (const relation of createdWith(ctx.def)) {
      const child = ctx.registry.get(relation.resource);
      const stored = await knex(child.table).where(relation.foreignKey, id).orderBy('id');
      assert.is(stored.length, relation.createWith!.length, `${relation.name}: one record per entry`);
      relation.createWith!.forEach((values, index) => {
        // A decimal column answers 100.0000 on MariaDB: numbers compare as numbers.
        for (const [column, value] of Object.entries(values))
          if (typeof value === 'number' || typeof value === 'boolean') assert.is(Number(stored[index]![column]), Number(value), `${relation.name}.${index}.${column} stored`);
          else assert.is(stored[index]![column], value, `${relation.name}.${index}.${column} stored`);
      });
      if (ctx.def.includes.includes(relation.name)) {
        const shown = await ctx.client.get(`${recordPath(ctx, id)}?include=${relation.name}`, { token: ctx.token });
        assert.is(shown.status, 200, shown.text);
        assert.equal(
          shown.body.data[relation.outputKey].map((row: { id: number }) => row.id),
          stored.map((row) => Number(row.id)),
          `${relation.name} included`,
        );
      }
      const count = async () => Number((await knex(child.table).count({ n: '*' }).first())!.n);
      const before = await count();
      const refused = await ctx.client.post(ctx.listPath, { token: ctx.token, body: { ...validPayload(ctx.def, ctx.payload, 44), ...missingRequired(ctx.def) } });
      assert.is(refused.status, 422, refused.text);
      assert.is(await count(), before, `${relation.name}: nothing created with a refused record`);
    }
  });
}

/** A body change that refuses the create: a required field sent as null. */
function missingRequired(def: ResourceDef): Record<string, null> {
  const field = [...def.fields.values()].find((one) => one.writable && one.required);
  assert.ok(field, `${def.name}: a required field to leave empty`);
  return { [field!.name]: null };
}
