// The value vocabulary, checked from the definition alone: a copy (`related`) equals its source
// and follows a change of it made through the API.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyScope, scopeTest } from '../../../engine/definition/scope.ts';
import type { FieldDef, ResourceDef } from '../../../engine/definition/types.ts';
import { referencedResource } from '../../../engine/definition/value-rules.ts';
import { API } from '../../helpers/app.ts';
import { recordPath, type ResourceContext } from '../context.ts';
import { sampleValue, validPayload } from '../payloads.ts';

const fieldsOf = (def: ResourceDef) => [...def.fields.values()];

/** Which value checks a definition calls for (its resource must create). */
export function valueRules(def: ResourceDef) {
  const fields = fieldsOf(def);
  return {
    related: fields.filter((field) => field.related),
    nestedCopies: fields.flatMap((field) => (field.type === 'records' ? [field] : [])),
  };
}

export function hasValueRules(def: ResourceDef, registry: ResourceContext['registry']): boolean {
  const { nestedCopies: _records, ...rules } = valueRules(def);
  return Object.values(rules).some((fields) => fields.length > 0) || nestedCopiesOf(def, registry).length > 0;
}

/** The copies the nested records of a resource keep of it (an order's lines: its company, partner, state). */
function nestedCopiesOf(def: ResourceDef, registry: ResourceContext['registry']) {
  return valueRules(def).nestedCopies.flatMap((records) => {
    const relation = def.relations.get(records.relation!)!;
    const child = registry.get(relation.resource);
    return fieldsOf(child).flatMap((field) => {
      if (!field.related) return [];
      const [relationName, column] = field.related.split('.') as [string, string];
      const back = child.relations.get(relationName)!;
      return back.foreignKey === relation.foreignKey && registry.get(back.resource).table === def.table ? [{ child, field, column, foreignKey: relation.foreignKey }] : [];
    });
  });
}

const nestedCopies = (ctx: ResourceContext) => nestedCopiesOf(ctx.def, ctx.registry);

/** The copy equals the source's column; after the source's column is changed through the API (when some view can), it follows. */
async function checkCopy(
  ctx: ResourceContext,
  name: string,
  read: () => Promise<unknown>,
  source: ResourceDef,
  column: string,
  sourceRow: Record<string, any>,
  editor: { def: ResourceDef; path: string } | undefined,
): Promise<void> {
  assert.ok(same(await read(), sourceRow[column]), `${name} is the ${source.name}'s ${column}`);
  if (!editor) return;
  const next = await otherValue(ctx, editor.def, editor.def.fields.get(column)!, sourceRow[column]);
  if (next === undefined) return;
  const changed = await ctx.client.put(editor.path, { token: ctx.token, body: { [column]: next } });
  assert.is(changed.status, 200, `${editor.def.name} ${column}: ${changed.text}`);
  try {
    const now = (await ctx.app.knex(source.table).where('id', sourceRow.id).first(column))[column];
    assert.ok(!same(now, sourceRow[column]), `${source.name}.${column} changed`);
    assert.ok(same(await read(), now), `${name} follows the ${source.name}'s ${column}`);
  } finally {
    await ctx.client.put(editor.path, { token: ctx.token, body: { [column]: sourceRow[column] } });
  }
}

/** Equal as stored and as sent: numbers as numbers (a decimal column reads back as text), the rest as text. */
const same = (a: unknown, b: unknown) => {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  const numeric = (value: unknown) => typeof value === 'number' || (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)));
  return numeric(a) && numeric(b) ? Number(a) === Number(b) : String(a) === String(b);
};

export function valueChecks(test: Test, context: () => ResourceContext) {
  const stored = (ctx: ResourceContext, id: number) => ctx.app.knex(ctx.def.table).where('id', id).first();
  const create = async (ctx: ResourceContext, body: Record<string, unknown>) => {
    const response = await ctx.client.post(ctx.listPath, { token: ctx.token, body });
    assert.is(response.status, 201, response.text);
    return response.body.data as Record<string, any>;
  };

  test('related: a copy equals its source, and follows a change of the source made through the API', async () => {
    const ctx = context();
    const record = await stored(ctx, (await create(ctx, validPayload(ctx.def, ctx.payload, 30))).id);
    // The record's own copies, and those its nested records keep of it (an order's lines).
    for (const field of valueRules(ctx.def).related) {
      const [relationName, column] = field.related!.split('.') as [string, string];
      const relation = ctx.def.relations.get(relationName)!;
      const source = ctx.registry.get(relation.resource);
      const sourceRow = await ctx.app.knex(source.table).where('id', record[relation.foreignKey]).first();
      assert.ok(sourceRow, `${field.name}: the record names a ${source.name}`);
      const read = async () => (await stored(ctx, record.id))[field.name];
      await checkCopy(ctx, `${field.name}`, read, source, column, sourceRow, await sourceEditor(ctx, source.table, column, sourceRow));
    }
    for (const { child, field, column, foreignKey } of nestedCopies(ctx)) {
      const read = async () => (await ctx.app.knex(child.table).where(foreignKey, record.id).pluck(field.name))[0];
      const editor = ctx.def.fields.get(column)?.writable ? { def: ctx.def, path: recordPath(ctx, record.id) } : undefined;
      await checkCopy(ctx, `${child.name}.${field.name}`, read, ctx.def, column, await stored(ctx, record.id), editor);
    }
  });
}

/**
 * A value of the field unlike `current`: another live record for a reference (one the editing
 * resource's scope accepts; made through its API when there is none), another sample otherwise;
 * undefined when there is none.
 */
async function otherValue(ctx: ResourceContext, def: ResourceDef, field: FieldDef, current: unknown): Promise<unknown> {
  const referenced = referencedResource(def, field);
  if (referenced) {
    const other = ctx.registry.get(referenced);
    const query = ctx.app
      .knex(other.table)
      .whereNot('id', current ?? 0)
      .orderBy('id')
      .first('id');
    if (other.softDelete) query.whereNull('deleted_at');
    applyScope(query, other, ctx.registry, ctx.app.knex);
    // The editing resource's scope through this field (a receipt's operation type is incoming).
    for (const [key, value] of Object.entries(def.scope)) {
      const [relationName, column] = key.split('.');
      if (column && def.relations.get(relationName!)?.foreignKey === field.name) {
        const { operator, operand } = scopeTest(value);
        query.where(column, operator, operand);
      }
    }
    const row = await query;
    if (row) return row.id;
    const made = Object.keys(def.scope).some((key) => key.includes('.')) ? undefined : await ctx.createRecord(referenced);
    return made !== undefined && !same(made, current) ? made : undefined;
  }
  for (let n = 40; n < 50; n++) {
    const value = sampleValue(field, ctx.payload, n, def);
    if (!same(value, current)) return value;
  }
  return undefined;
}

/** A resource of the table that updates `column` and shows the row (its path filled): the API way to change the source. */
async function sourceEditor(ctx: ResourceContext, table: string, column: string, row: Record<string, any>) {
  for (const def of ctx.registry.all()) {
    if (def.table !== table || !def.operations.has('update') || !def.fields.get(column)?.writable) continue;
    const base = `${API}${def.path}`.replace(`{${def.parent?.param}}`, String(row[def.parent?.foreignKey ?? ''] ?? ''));
    const path = `${base}/${row.id}`;
    if ((await ctx.client.get(path, { token: ctx.token })).status === 200) return { def, path };
  }
  return undefined;
}
