import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { API } from '../../helpers/app.ts';
import { countStatements } from '../../helpers/statements.ts';
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

/**
 * Shows that arrive together (engine/sql/coalesced-reads.ts): each gets what it gets alone (its
 * record, a 404 for a missing one or, nested, one under another parent), and on a database server
 * their reads are one statement: what they send together is what they send alone, less a
 * statement for every show but one.
 */
export function togetherChecks(test: Test, context: () => ResourceContext) {
  test('show: shows that arrive together each get what they get alone, their reads in one statement', async () => {
    const ctx = context();
    const rows = await liveRows(ctx).orderBy('id').limit(3).select('id');
    assert.ok(rows.length > 0, 'a record to show');
    const paths = [...rows.map((row) => recordPath(ctx, row.id)), recordPath(ctx, rows[0]!.id), recordPath(ctx, 99999999)];
    if (ctx.def.parent) {
      const parent = ctx.registry.get(ctx.def.parent.resource);
      const other = await ctx.app.knex(parent.table).whereNot('id', ctx.parentId!).orderBy('id').first('id');
      const otherList = other && `${API}${ctx.def.path}`.replace(`{${ctx.def.parent.param}}`, String(other.id));
      if (otherList) paths.push(`${otherList}/${rows[0]!.id}`);
    }
    const send = (path: string) => ctx.app.app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${ctx.token}` } });
    const answer = (response: { statusCode: number; body: string }) => ({ status: response.statusCode, body: JSON.parse(response.body) });
    const alone: unknown[] = [];
    const aloneStatements = await countStatements(ctx.app.knex, async () => {
      for (const path of paths) alone.push(answer(await send(path)));
    });
    let together: unknown[] = [];
    const sqls: string[] = [];
    // inject dispatches every request before any I/O: they arrive in one turn of the event loop.
    const togetherStatements = await countStatements(ctx.app.knex, async () => (together = (await Promise.all(paths.map(send))).map(answer)), sqls);
    assert.equal(together, alone);
    const batched = ctx.target.name === 'mysql';
    assert.is(togetherStatements, batched ? aloneStatements - (paths.length - 1) : aloneStatements, sqls.join('\n'));
  });
}
