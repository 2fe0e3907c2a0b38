// Each declared sort, both directions, compared with the database's own ordering.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { liveRows, type ResourceContext } from '../context.ts';

export function sortChecks(test: Test, context: () => ResourceContext) {
  test('sorts: each allowed sort, ascending and descending, with id breaking ties the same way', async () => {
    const ctx = context();
    for (const name of ctx.def.sorts) {
      for (const descending of [false, true]) {
        const response = await ctx.client.get(`${ctx.listPath}?per_page=100&sort=${descending ? '-' : ''}${name}`, { token: ctx.token });
        assert.is(response.status, 200);
        const expected = await liveRows(ctx)
          .orderBy(name, descending ? 'desc' : 'asc')
          .orderBy('id', descending ? 'desc' : 'asc')
          .limit(100)
          .pluck('id');
        assert.equal(
          response.body.data.map((row: any) => row.id),
          expected.map(Number),
          `sort=${descending ? '-' : ''}${name}`,
        );
      }
    }
  });

  test('sorts: the default sort and several comma-separated sorts', async () => {
    const ctx = context();
    const plain = await ctx.client.get(`${ctx.listPath}?per_page=100`, { token: ctx.token });
    const query = liveRows(ctx);
    for (const sort of ctx.def.defaultSort) query.orderBy(sort.name, sort.descending ? 'desc' : 'asc');
    assert.equal(
      plain.body.data.map((row: any) => row.id),
      (await query.orderBy('id').limit(100).pluck('id')).map(Number),
      'default sort',
    );
    if (ctx.def.sorts.length < 2) return;
    const [first, second] = ctx.def.sorts as [string, string];
    const combined = await ctx.client.get(`${ctx.listPath}?per_page=100&sort=-${first},${second}`, { token: ctx.token });
    const expected = await liveRows(ctx).orderBy(first, 'desc').orderBy(second, 'asc').orderBy('id').limit(100).pluck('id');
    assert.equal(
      combined.body.data.map((row: any) => row.id),
      expected.map(Number),
      `sort=-${first},${second}`,
    );
  });
}
