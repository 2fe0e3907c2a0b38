// POST <resource path>/import for every resource that allows create: valid rows are checked by a
// dry run that writes nothing, then created (from a CSV, cells read by type) with their changes in
// the feed; a bad row gets a create's errors under its line, rolls the whole file back by
// default, and is left out while the good rows are written with on_error=skip.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceContext } from '../context.ts';
import { invalidValues, validPayload, writableFields } from '../payloads.ts';

const JSON_LINES = { 'content-type': 'application/x-ndjson' };

export function importChecks(test: Test, context: () => ResourceContext) {
  test('import: dry run, all or nothing, on_error=skip, a CSV through the write path', async () => {
    const ctx = context();
    const path = `${ctx.listPath}/import`;
    const send = (rawBody: string, query: Record<string, string> = {}, headers = JSON_LINES) => ctx.client.post(path, { token: ctx.token, rawBody, headers, query });
    const lines = (...bodies: unknown[]) => `${bodies.map((body) => JSON.stringify(body)).join('\n')}\n`;
    const count = async () => Number((await ctx.app.knex(ctx.def.table).count({ n: '*' }).first())!.n);
    const bad = badPayload(ctx);
    const createErrors = (await ctx.client.post(ctx.listPath, { token: ctx.token, body: bad })).body.errors;
    assert.ok(createErrors, 'the bad row is refused by a create');

    const before = await count();
    const dry = await send(lines(validPayload(ctx.def, ctx.payload, 30), validPayload(ctx.def, ctx.payload, 31)), { dry_run: '1' });
    assert.is(dry.status, 200, dry.text);
    assert.equal(dry.body.rejected, [], 'valid rows pass a dry run');
    assert.is(dry.body.created + dry.body.updated, 2);
    assert.is(await count(), before, 'a dry run writes nothing');

    const aborted = await send(lines(validPayload(ctx.def, ctx.payload, 32), bad));
    assert.is(aborted.status, 422, aborted.text);
    assert.equal(aborted.body.rejected, [{ row: 2, errors: createErrors }], 'the bad row has the create’s errors, under its line');
    assert.is(await count(), before, 'all or nothing: the good row is not written either');

    const skipped = await send(lines(validPayload(ctx.def, ctx.payload, 33), bad), { on_error: 'skip' });
    assert.is(skipped.status, 200, skipped.text);
    assert.equal(skipped.body.rejected, [{ row: 2, errors: createErrors }]);
    assert.is(skipped.body.created + skipped.body.updated, 1);
    assert.is(await count(), before + skipped.body.created, 'on_error=skip writes the good row');

    const changes = async () => Number((await ctx.app.knex('change_log').where({ resource: ctx.def.name }).whereIn('kind', ['created', 'updated']).count({ n: '*' }).first())!.n);
    const recorded = await changes();
    const csv = asCsv([validPayload(ctx.def, ctx.payload, 34), validPayload(ctx.def, ctx.payload, 35)]);
    const imported = await send(csv, {}, { 'content-type': 'text/csv' });
    assert.is(imported.status, 200, imported.text);
    assert.equal(imported.body.rejected, [], 'CSV cells read by their field’s type');
    assert.is(imported.body.created + imported.body.updated, 2);
    // Rows that update one record (upsertOn) leave one change of it: the unit's last state.
    const records = imported.body.created + Math.min(imported.body.updated, 1);
    assert.ok((await changes()) >= recorded + records, 'each imported record is in the change feed');
  });
}

/** A valid row but for one field: the first required one left out, else the first field with an invalid value. */
function badPayload(ctx: ResourceContext): Record<string, unknown> {
  const payload = validPayload(ctx.def, ctx.payload, 36);
  const required = writableFields(ctx.def).find((field) => field.required && field.name !== ctx.def.parent?.foreignKey);
  if (required) {
    delete payload[required.name];
    return payload;
  }
  for (const field of writableFields(ctx.def)) {
    const [invalid] = invalidValues(field, ctx.payload);
    if (invalid) return { ...payload, [field.name]: invalid.value };
  }
  throw new Error(`${ctx.def.name}: no way to make a bad row`);
}

/** Bodies as CSV: the union of their keys as the header, lists and objects as JSON, null as an empty cell. */
function asCsv(bodies: Array<Record<string, unknown>>): string {
  const columns = [...new Set(bodies.flatMap((body) => Object.keys(body)))];
  const cell = (value: unknown) => {
    const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
    return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return `${[columns.join(','), ...bodies.map((body) => columns.map((column) => cell(body[column])).join(','))].join('\n')}\n`;
}
