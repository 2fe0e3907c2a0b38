import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { API } from '../../helpers/app.ts';
import { liveRows, recordPath, type ResourceContext } from '../context.ts';

const NOT_FOUND = { message: 'The requested resource was not found.' };

export function showChecks(test: Test, context: () => ResourceContext) {
  test('show: 200 {data} with every output field', async () => {
    const ctx = context();
    const row = await liveRows(ctx).orderBy('id').first('id');
    assert.ok(row, 'a record to show');
    const response = await ctx.client.get(recordPath(ctx, row.id), { token: ctx.token });
    assert.is(response.status, 200);
    assert.equal(Object.keys(response.body), ['data']);
    const embedded = ctx.def.embed.map((name) => ctx.def.relations.get(name)!.outputKey);
    const expected = [...[...ctx.def.fields.values()].filter((f) => f.output).map((f) => f.name), ...embedded];
    assert.equal(Object.keys(response.body.data), expected);
    assert.is(response.body.data.id, Number(row.id));
  });

  test('show: unknown and non-numeric ids → 404 {message}', async () => {
    const ctx = context();
    for (const id of ['99999999', 'abc', '1.5']) {
      const response = await ctx.client.get(recordPath(ctx, id), { token: ctx.token });
      assert.is(response.status, 404, id);
      assert.equal(response.body, NOT_FOUND);
    }
  });
}

/** Registered only for nested resources. */
export function nestedChecks(test: Test, context: () => ResourceContext) {
  test('nested: a record under another parent, and an unknown parent → 404', async () => {
    const ctx = context();
    const { def } = ctx;
    if (!def.parent) throw new Error(`${def.name} is not nested`);
    const row = await liveRows(ctx).orderBy('id').first('id');
    const parent = ctx.registry.get(def.parent.resource);
    const other = await ctx.app.knex(parent.table).whereNot('id', ctx.parentId!).orderBy('id').first('id');
    const under = (parentId: number | string) => `${API}${def.path}`.replace(`{${def.parent!.param}}`, String(parentId));
    if (other) {
      const wrongParent = await ctx.client.get(`${under(other.id)}/${row.id}`, { token: ctx.token });
      assert.is(wrongParent.status, 404, 'record under the wrong parent');
      assert.equal(wrongParent.body, NOT_FOUND);
    }
    if (!parent.parent) {
      // Another parent the list would show, with or without records of its own: the same total as the table.
      const otherLive = await liveRows({ ...ctx, def: parent, parentId: undefined })
        .whereNot(`${parent.table}.id`, ctx.parentId!)
        .orderBy(`${parent.table}.id`, 'desc')
        .first(`${parent.table}.id`);
      if (otherLive) {
        const listed = await ctx.client.get(under(otherLive.id), { token: ctx.token });
        assert.is(listed.status, 200, listed.text);
        const total = Number(
          (await liveRows({ ...ctx, parentId: Number(otherLive.id) })
            .count({ count: '*' })
            .first())!.count,
        );
        assert.is(listed.body.meta.total, total, 'list under another parent');
      }
    }
    const recordUnderUnknownParent = await ctx.client.get(`${under(99999999)}/${row.id}`, { token: ctx.token });
    assert.is(recordUnderUnknownParent.status, 404, 'record under an unknown parent');
    assert.equal(recordUnderUnknownParent.body, NOT_FOUND);
    const unknownParent = await ctx.client.get(under(99999999), { token: ctx.token });
    assert.is(unknownParent.status, 404, 'list under an unknown parent');
    assert.equal(unknownParent.body, NOT_FOUND);
  });
}
