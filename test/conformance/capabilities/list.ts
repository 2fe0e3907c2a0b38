import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { liveRows, type ResourceContext } from '../context.ts';

export function listChecks(test: Test, context: () => ResourceContext) {
  test('list: the paginated envelope, 15 per page by default', async () => {
    const ctx = context();
    const response = await ctx.client.get(ctx.listPath, { token: ctx.token });
    assert.is(response.status, 200, response.text);
    assert.equal(Object.keys(response.body), ['data', 'links', 'meta']);
    assert.equal(Object.keys(response.body.links), ['first', 'last', 'prev', 'next']);
    assert.equal(Object.keys(response.body.meta), ['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total']);
    const total = Number((await liveRows(ctx).count({ count: '*' }).first())!.count);
    assert.is(response.body.meta.total, total);
    assert.is(response.body.meta.per_page, 15);
    assert.is(response.body.data.length, Math.min(15, total));
    assert.is(response.body.meta.path, `${ctx.client.baseUrl}${ctx.listPath}`);
    assert.is(response.body.links.prev, null);
  });

  test('list: per_page and page walk every record once, with links and meta', async () => {
    const ctx = context();
    const total = Number((await liveRows(ctx).count({ count: '*' }).first())!.count);
    assert.ok(total >= 1, 'a record to list');
    const seen: number[] = [];
    let url: string | null = `${ctx.listPath}?per_page=1&sort=id`;
    for (let page = 1; url && page <= 3; page++) {
      const response: any = await ctx.client.get(url, { token: ctx.token });
      assert.is(response.status, 200);
      const { meta, links, data } = response.body;
      assert.is(meta.current_page, page);
      assert.is(meta.last_page, total);
      assert.is(meta.from, page);
      assert.is(meta.to, page);
      assert.is(data.length, 1);
      assert.is(meta.links.filter((link: any) => link.active).length, 1);
      assert.is(meta.links.find((link: any) => link.active).page, page);
      assert.is(links.prev === null, page === 1);
      assert.ok(links.first.includes('per_page=1'), 'links keep the query');
      seen.push(data[0].id);
      url = links.next && new URL(links.next).pathname + new URL(links.next).search;
    }
    assert.is(new Set(seen).size, seen.length, 'no record twice');
    const past = await ctx.client.get(`${ctx.listPath}?page=${total + 1}&per_page=1`, { token: ctx.token });
    assert.equal(past.body.data, []);
    assert.is(past.body.meta.from, null);
  });

  test('list: bad per_page and page → 422 naming them', async () => {
    const ctx = context();
    for (const [query, field, message] of [
      ['per_page=101', 'per_page', 'The per page field must not be greater than 100.'],
      ['per_page=0', 'per_page', 'The per page field must be at least 1.'],
      ['per_page=ten', 'per_page', 'The per page field must be an integer.'],
      ['page=0', 'page', 'The page field must be at least 1.'],
      ['page=x', 'page', 'The page field must be an integer.'],
    ] as const) {
      const response = await ctx.client.get(`${ctx.listPath}?${query}`, { token: ctx.token });
      assert.is(response.status, 422, query);
      assert.equal(response.body, { message, errors: { [field]: [message] } });
    }
    const max = await ctx.client.get(`${ctx.listPath}?per_page=100`, { token: ctx.token });
    assert.is(max.status, 200);
    assert.is(max.body.meta.per_page, 100);
  });

  test('list: unknown filter, sort or include → 400 listing the allowed names', async () => {
    const ctx = context();
    const { def } = ctx;
    const filter = await ctx.client.get(`${ctx.listPath}?filter[nope]=1`, { token: ctx.token });
    assert.is(filter.status, 400);
    assert.equal(filter.body, { message: `Requested filter(s) \`nope\` are not allowed. Allowed filter(s) are \`${[...def.filters.keys()].join(', ')}\`.` });
    const sort = await ctx.client.get(`${ctx.listPath}?sort=-nope`, { token: ctx.token });
    assert.is(sort.status, 400);
    assert.equal(sort.body, { message: `Requested sort(s) \`nope\` is not allowed. Allowed sort(s) are \`${def.sorts.join(', ')}\`.` });
    const include = await ctx.client.get(`${ctx.listPath}?include=nope`, { token: ctx.token });
    assert.is(include.status, 400);
    assert.match(include.body.message, /^Requested include\(s\) `nope` are not allowed\. Allowed include\(s\) are `/);
    for (const name of def.includes) assert.ok(include.body.message.includes(name), `lists ${name}`);
  });
}
