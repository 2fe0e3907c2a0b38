// Each declared include, on list and show: the related records appear under the snake_case name.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceDef } from '../../../engine/definition/types.ts';
import { recordPath, type ResourceContext } from '../context.ts';

export function includeChecks(test: Test, context: () => ResourceContext) {
  test('includes: each one appears under its snake_case key and matches the foreign key', async () => {
    const ctx = context();
    const plain = await ctx.client.get(`${ctx.listPath}?per_page=20`, { token: ctx.token });
    for (const relation of ctx.def.relations.values()) {
      const embedded = ctx.def.embed.includes(relation.name);
      for (const row of plain.body.data) assert.is(relation.outputKey in row, embedded, `${relation.name} is ${embedded ? 'always present' : 'absent unless included'}`);
    }
    for (const include of ctx.def.includes) {
      const list = await ctx.client.get(`${ctx.listPath}?per_page=20&include=${include}`, { token: ctx.token });
      assert.is(list.status, 200, `include=${include}: ${list.text}`);
      assert.ok(list.body.data.length > 0);
      for (const row of list.body.data) await checkIncluded(ctx, ctx.def, row, include.split('.'));
      if (!ctx.def.operations.has('show')) continue; // a list of its own only (a purchase order's receipts)
      const first = list.body.data[0];
      const show = await ctx.client.get(`${recordPath(ctx, first.id)}?include=${include}`, { token: ctx.token });
      assert.is(show.status, 200);
      assert.equal(show.body.data, first, `show?include=${include} equals the list row`);
    }
    if (ctx.def.includes.length > 1) {
      const all = await ctx.client.get(`${ctx.listPath}?include=${ctx.def.includes.join(',')}`, { token: ctx.token });
      assert.is(all.status, 200);
    }
  });
}

async function checkIncluded(ctx: ResourceContext, def: ResourceDef, row: Record<string, any>, path: string[]): Promise<void> {
  const [name, ...rest] = path as [string, ...string[]];
  const relation = def.relations.get(name)!;
  const target = ctx.registry.get(relation.resource);
  assert.ok(relation.outputKey in row, `${name} appears as ${relation.outputKey}`);
  const value = row[relation.outputKey];
  if (relation.kind === 'belongsTo') {
    if (row[relation.foreignKey] === null || row[relation.foreignKey] === undefined) {
      assert.is(value, null, `${name} is null without ${relation.foreignKey}`);
      return;
    }
    assert.is(value.id, row[relation.foreignKey], `${name}.id = ${relation.foreignKey}`);
    if (rest.length > 0) await checkIncluded(ctx, target, value, rest);
  } else if (relation.kind === 'manyToMany') {
    const through = relation.through!;
    const linked = (await ctx.app.knex(through.table).where(through.from, row.id).pluck(through.to)).map(Number);
    assert.ok(Array.isArray(value), `${name} is a list`);
    for (const item of value) assert.ok(linked.includes(item.id), `${name}[] is linked through ${through.table}`);
    if (rest.length > 0) for (const item of value) await checkIncluded(ctx, target, item, rest);
  } else {
    assert.ok(Array.isArray(value), `${name} is a list`);
    for (const child of value) {
      assert.is(child[relation.foreignKey], row.id, `${name}[].${relation.foreignKey} = id`);
      if (target.softDelete) assert.is(child.deleted_at, null, 'trashed children stay hidden');
      if (rest.length > 0) await checkIncluded(ctx, target, child, rest);
    }
  }
}
