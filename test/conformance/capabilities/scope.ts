// The definition's scope on its own columns: a row of the same table whose scoped column says
// otherwise belongs to another resource, and this one neither shows, lists nor changes it. A
// served row is moved out of the scope for the check (a value the scope refuses), then put back.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ScopeValue } from '../../../engine/definition/format.ts';
import { scopeTest } from '../../../engine/definition/scope.ts';
import type { ResourceDef } from '../../../engine/definition/types.ts';
import { liveRows, recordPath, type ResourceContext } from '../context.ts';

const NOT_FOUND = { message: 'The requested resource was not found.' };

/** The scope's own columns (not those reached through a relation). */
export function ownScopeColumns(def: ResourceDef): Array<[string, ScopeValue]> {
  return Object.entries(def.scope).filter(([key]) => !key.includes('.'));
}

/** A value the scope refuses: the operand where the comparison is strict, else one step beside it. */
function outsideValue(value: ScopeValue): unknown {
  const { operator, operand } = scopeTest(value);
  const step = (n: number) => (typeof operand === 'number' ? operand + n : `${operand}~`);
  switch (operator) {
    case '=':
      return typeof operand === 'boolean' ? !operand : step(1);
    case '<>':
    case '>':
    case '<':
      return operand;
    case '>=':
      return step(-1);
    case '<=':
      return step(1);
  }
}

export function scopeChecks(test: Test, context: () => ResourceContext) {
  test('scope: a row of the table outside the scope → 404 on show (and update), absent from the list', async () => {
    const ctx = context();
    const { def, app } = ctx;
    const row = await liveRows(ctx).orderBy(`${def.table}.id`).first(`${def.table}.id`);
    assert.ok(row, 'a record to move out of the scope');
    const id = Number(row.id);
    const columns = ownScopeColumns(def).map(([column]) => column);
    const stored = await app.knex(def.table).where('id', id).first(columns);
    try {
      for (const [column, value] of ownScopeColumns(def)) {
        await app
          .knex(def.table)
          .where('id', id)
          .update({ [column]: outsideValue(value) });
        const shown = await ctx.client.get(recordPath(ctx, id), { token: ctx.token });
        assert.is(shown.status, 404, `${column} outside the scope`);
        assert.equal(shown.body, NOT_FOUND);
        if (def.operations.has('update')) {
          const updated = await ctx.client.send('PATCH', recordPath(ctx, id), { token: ctx.token, body: {} });
          assert.is(updated.status, 404, `update with ${column} outside the scope`);
        }
        if (def.filters.get('id')) {
          const listed = await ctx.client.get(`${ctx.listPath}?filter[id]=${id}`, { token: ctx.token });
          assert.is(listed.status, 200);
          assert.equal(listed.body.data, [], `${column} outside the scope: not listed`);
        }
        await app.knex(def.table).where('id', id).update(stored);
      }
    } finally {
      await app.knex(def.table).where('id', id).update(stored);
    }
    const back = await ctx.client.get(recordPath(ctx, id), { token: ctx.token });
    assert.is(back.status, 200, 'back inside the scope');
  });
}
