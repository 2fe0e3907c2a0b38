// Delete, and for soft-deletable resources the whole lifecycle: hidden, trashed filter, restore, force delete.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { recordPath, type ResourceContext } from '../context.ts';
import { sampleValue, validPayload } from '../payloads.ts';

export function lifecycleChecks(test: Test, context: () => ResourceContext) {
  test('delete → 200 {message}; soft delete hides, trashed filter shows, restore brings back, force removes', async () => {
    const ctx = context();
    const { def } = ctx;
    const created = await ctx.client.post(ctx.listPath, { token: ctx.token, body: validPayload(def, ctx.payload, 5) });
    assert.is(created.status, 201, created.text);
    const id = created.body.data.id;
    const inList = async (query = '') => {
      const response = await ctx.client.get(`${ctx.listPath}?per_page=100&sort=-id${query}`, { token: ctx.token });
      return response.body.data.some((row: any) => row.id === id);
    };

    const deleted = await ctx.client.delete(recordPath(ctx, id), { token: ctx.token });
    assert.is(deleted.status, 200);
    assert.equal(deleted.body, { message: def.messages.deleted });
    assert.is((await ctx.client.get(recordPath(ctx, id), { token: ctx.token })).status, 404, 'show after delete');
    assert.not.ok(await inList(), 'hidden from the list');
    assert.is((await ctx.client.delete(recordPath(ctx, id), { token: ctx.token })).status, 404, 'second delete');

    const stored = await ctx.app.knex(def.table).where('id', id).first();
    if (def.softDelete && def.operations.has('list')) {
      const values = def.filters.get('trashed')?.values ?? [];
      assert.ok(values.includes('with') && values.includes('only'), 'a soft-deleted record can be found again to be restored: filter[trashed]=with|only');
    }
    if (!def.softDelete) {
      assert.is(stored, undefined, 'hard delete removes the row');
      return;
    }
    assert.ok(stored?.deleted_at, 'soft delete keeps the row with deleted_at');
    const trashed = def.filters.get('trashed');
    if (trashed) {
      if (trashed.values.includes('with')) assert.ok(await inList('&filter[trashed]=with'), 'filter[trashed]=with shows it');
      if (trashed.values.includes('only')) {
        const only = await ctx.client.get(`${ctx.listPath}?per_page=100&filter[trashed]=only`, { token: ctx.token });
        assert.ok(
          only.body.data.some((row: any) => row.id === id),
          'filter[trashed]=only shows it',
        );
        for (const row of only.body.data) assert.ok(row.deleted_at === undefined || row.deleted_at !== null, 'only trashed rows');
      }
      assert.not.ok(await inList('&filter[trashed]=without'), 'filter[trashed]=without hides it');
      assert.not.ok(await inList('&filter[trashed]=whatever'), 'another value hides it');
    }

    if (def.operations.has('restore')) {
      const restored = await ctx.client.post(`${recordPath(ctx, id)}/restore`, { token: ctx.token });
      assert.is(restored.status, 200, restored.text);
      assert.is(restored.body.message, def.messages.restored);
      assert.is(restored.body.data.id, id);
      if ('deleted_at' in restored.body.data) assert.is(restored.body.data.deleted_at, null);
      assert.is((await ctx.client.get(recordPath(ctx, id), { token: ctx.token })).status, 200, 'show after restore');
      assert.ok(await inList(), 'back in the list');
      assert.is((await ctx.client.post(`${recordPath(ctx, 99999999)}/restore`, { token: ctx.token })).status, 404, 'restore unknown id');
    }

    if (def.operations.has('forceDelete')) {
      const removed = await ctx.client.delete(`${recordPath(ctx, id)}/force`, { token: ctx.token });
      assert.is(removed.status, 200);
      assert.equal(removed.body, { message: def.messages.forceDeleted });
      assert.is(await ctx.app.knex(def.table).where('id', id).first(), undefined, 'the row is gone');
      if (trashed?.values.includes('with')) assert.not.ok(await inList('&filter[trashed]=with'), 'not even with trashed');
      if (def.operations.has('restore')) assert.is((await ctx.client.post(`${recordPath(ctx, id)}/restore`, { token: ctx.token })).status, 404, 'cannot be restored');
    }
  });
}

/** Registered only for resources with a force delete. */
export function forceDeleteChecks(test: Test, context: () => ResourceContext) {
  test('force delete also removes a record that was not soft-deleted first', async () => {
    const ctx = context();
    const created = await ctx.client.post(ctx.listPath, { token: ctx.token, body: validPayload(ctx.def, ctx.payload, 6) });
    const removed = await ctx.client.delete(`${recordPath(ctx, created.body.data.id)}/force`, { token: ctx.token });
    assert.is(removed.status, 200);
    assert.is(await ctx.app.knex(ctx.def.table).where('id', created.body.data.id).first(), undefined);
  });
}

/** Registered only for restorable resources with a field unique among live records (`unique: live`). */
export function restoreUniqueChecks(test: Test, context: () => ResourceContext) {
  test('restore keeps `unique: live`: a value a live record took meanwhile → 422 naming the field, the record stays trashed', async () => {
    const ctx = context();
    const { def } = ctx;
    for (const field of def.fields.values()) {
      if (field.unique !== 'live' || !field.writable) continue;
      const value = sampleValue(field, { ...ctx.payload, tag: `${ctx.payload.tag}r` }, 41);
      const first = await ctx.client.post(ctx.listPath, { token: ctx.token, body: { ...validPayload(def, ctx.payload, 41), [field.name]: value } });
      assert.is(first.status, 201, first.text);
      assert.is((await ctx.client.delete(recordPath(ctx, first.body.data.id), { token: ctx.token })).status, 200);
      const second = await ctx.client.post(ctx.listPath, { token: ctx.token, body: { ...validPayload(def, ctx.payload, 42), [field.name]: value } });
      assert.is(second.status, 201, `a trashed record does not hold ${field.name}: ${second.text}`);
      const refused = await ctx.client.post(`${recordPath(ctx, first.body.data.id)}/restore`, { token: ctx.token });
      assert.is(refused.status, 422, refused.text);
      assert.equal(refused.body.errors, { [field.name]: [`The ${field.label} has already been taken.`] });
      const row = await ctx.app.knex(def.table).where('id', first.body.data.id).first('deleted_at');
      assert.ok(row.deleted_at !== null, 'still trashed');
      // Once the value is free again, the record comes back.
      assert.is((await ctx.client.delete(recordPath(ctx, second.body.data.id), { token: ctx.token })).status, 200);
      const restored = await ctx.client.post(`${recordPath(ctx, first.body.data.id)}/restore`, { token: ctx.token });
      assert.is(restored.status, 200, restored.text);
      assert.is(restored.body.data[field.name], value);
    }
  });
}
