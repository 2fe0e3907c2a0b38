// Workflow actions, for every action a definition declares: a missing record is a 404, the
// action's permission is required, its declared guard (`when`) refuses a record in any other
// state with 422 and the declared message, and its declared body (`body`) refuses each value
// breaking a field's rules with 422 naming the field — all changing nothing.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyScope } from '../../../engine/definition/scope.ts';
import type { ActionDef, FieldDef, FieldSet } from '../../../engine/definition/types.ts';
import { userWith } from '../../helpers/access.ts';
import { API } from '../../helpers/app.ts';
import { liveRows, recordPath, type ResourceContext } from '../context.ts';
import { invalidValues, sampleValue, validPayload, type InvalidCase } from '../payloads.ts';

/** A record to act on: a fresh one when the resource can create, else an existing one. */
async function target(ctx: ResourceContext, n: number): Promise<number> {
  if (ctx.def.operations.has('create')) {
    const created = await ctx.client.post(ctx.listPath, { token: ctx.token, body: validPayload(ctx.def, ctx.payload, n) });
    assert.is(created.status, 201, created.text);
    return created.body.data.id;
  }
  const row = await liveRows(ctx).orderBy('id').first('id');
  assert.ok(row, 'a record to act on');
  return Number(row.id);
}

export function actionChecks(test: Test, context: () => ResourceContext) {
  test('actions: a missing record → 404; without the action’s permission → 403', async () => {
    const ctx = context();
    for (const action of ctx.def.actions.values()) {
      if (action.on === 'collection') continue; // collectionActionChecks
      const missing = await ctx.client.post(`${recordPath(ctx, 99999999)}/${action.name}`, { token: ctx.token });
      assert.is(missing.status, 404, `${action.name} on a missing record`);
      const id = await target(ctx, 200);
      const before = await ctx.app.knex(ctx.def.table).where('id', id).first();
      for (const permission of ctx.def.access.permissions[action.name]!) {
        const { token } = await userWith(ctx.app, { allBut: [permission] });
        const refused = await ctx.client.post(`${recordPath(ctx, id)}/${action.name}`, { token });
        assert.is(refused.status, 403, `${action.name} without ${permission}`);
      }
      assert.equal(await ctx.app.knex(ctx.def.table).where('id', id).first(), before, 'nothing changed');
      const { token } = await userWith(ctx.app, { only: ctx.def.access.permissions[action.name]! });
      const allowed = await ctx.client.post(`${recordPath(ctx, id)}/${action.name}`, { token });
      assert.ok([action.creates ? 201 : 200, 422].includes(allowed.status), `${action.name} with only its permission: ${allowed.status} ${allowed.text}`);
    }
  });
}

/** Registered only for resources with a guarded action. */
export function guardChecks(test: Test, context: () => ResourceContext) {
  test('actions: the declared guard refuses a record in another state (422 {message}), changing nothing', async () => {
    const ctx = context();
    for (const action of ctx.def.actions.values()) {
      if (!action.when) continue; // actions without a guard have nothing to refuse
      const id = await target(ctx, 210);
      for (const [column, allowed] of Object.entries(action.when)) {
        const field = ctx.def.fields.get(column);
        const other = field?.type === 'boolean' ? !allowed[0] : (field?.enum?.find((value) => !allowed.map(String).includes(value)) ?? `not-${allowed[0]}`);
        await ctx.app
          .knex(ctx.def.table)
          .where('id', id)
          .update({ [column]: other });
        const before = await ctx.app.knex(ctx.def.table).where('id', id).first();
        const response = await ctx.client.post(`${recordPath(ctx, id)}/${action.name}`, { token: ctx.token });
        assert.is(response.status, 422, `${action.name} when ${column} is ${other}`);
        assert.equal(response.body, { message: action.refused });
        assert.equal(await ctx.app.knex(ctx.def.table).where('id', id).first(), before, 'nothing changed');
      }
    }
  });
}

/** Registered only for resources with an action that declares a body. */
export function bodyChecks(test: Test, context: () => ResourceContext) {
  test('actions: each value breaking a rule of the declared body → 422 naming the field, nothing changed', async () => {
    const ctx = context();
    const { knex } = ctx.app;
    for (const action of ctx.def.actions.values()) {
      if (!action.body) continue;
      const id = await target(ctx, 220);
      // A record the action may run on (`when`): only its body stands in the way.
      for (const [column, allowed] of Object.entries(action.when ?? {})) {
        await knex(ctx.def.table)
          .where('id', id)
          .update({ [column]: allowed[0] });
      }
      const valid = await validBody(ctx, action.body);
      const cases = bodyCases(action.body, valid);
      assert.ok(cases.length > 0, `${action.name}: cases to check`);
      const snapshot = () => written(ctx, action, id);
      const before = await snapshot();
      for (const { rule, body, key, message } of cases) {
        const response = await ctx.client.post(`${recordPath(ctx, id)}/${action.name}`, { token: ctx.token, body });
        assert.is(response.status, 422, `${action.name} ${key} ${rule}: ${response.text}`);
        assert.equal(response.body.errors, { [key]: [message] }, `${action.name} ${key} ${rule}`);
        assert.is(response.body.message, message);
      }
      const notAnObject = await ctx.client.post(`${recordPath(ctx, id)}/${action.name}`, { token: ctx.token, body: [valid] });
      assert.equal([notAnObject.status, notAnObject.body], [400, { message: 'The request body must be a JSON object.' }], `${action.name}: a list for a body`);
      assert.equal(await snapshot(), before, `${action.name}: nothing changed`);
    }
  });
}

/** A body the action's rules accept: every field with a valid value (references: live rows). */
async function validBody(ctx: ResourceContext, body: FieldSet): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  for (const field of body.fields.values()) {
    if (field.entries) values[field.name] = [await validBody(ctx, field.entries)];
    else if (field.references) values[field.name] = await liveId(ctx, field.references);
    else values[field.name] = sampleValue(field, ctx.payload, 3);
  }
  return values;
}

async function liveId(ctx: ResourceContext, resource: string): Promise<number> {
  const def = ctx.registry.get(resource);
  const query = ctx.app.knex(def.table).orderBy('id').first(`${def.table}.id`);
  if (def.softDelete) query.whereNull(`${def.table}.deleted_at`);
  applyScope(query, def, ctx.registry, ctx.app.knex);
  const row = await query;
  assert.ok(row, `a live ${resource} record for the body to name`);
  return Number(row.id);
}

interface BodyCase extends InvalidCase {
  body: Record<string, unknown>;
  key: string;
}

/**
 * A valid body with one value broken, for every rule of every field (those of a list's entries in
 * its first entry, named `moves.0.quantity`), with the message a resource's field gives.
 */
function bodyCases(body: FieldSet, valid: Record<string, unknown>): BodyCase[] {
  const cases: BodyCase[] = [];
  const context = { referenceIds: new Map(), registry: undefined as never, tag: 'body' };
  for (const field of body.fields.values()) {
    const broken = (value: unknown) => ({ ...valid, [field.name]: value });
    for (const invalid of invalidValues(field, context)) cases.push({ ...invalid, key: invalid.key ?? field.name, body: broken(invalid.value) });
    if (field.required) cases.push({ rule: 'required', value: undefined, key: field.name, message: `The ${field.label} field is required.`, body: broken(undefined) });
    if (!field.entries) continue;
    const entry = (valid[field.name] as Array<Record<string, unknown>>)[0]!;
    cases.push({
      rule: `maxItems ${field.maxItems}`,
      value: undefined,
      key: field.name,
      message: `The ${field.label} field must not have more than ${field.maxItems} items.`,
      body: broken(Array.from({ length: field.maxItems! + 1 }, () => entry)),
    });
    for (const inner of field.entries.fields.values()) {
      const named: FieldDef = { ...inner, label: `${field.label}.0.${inner.label}` };
      const key = `${field.name}.0.${inner.name}`;
      for (const invalid of invalidValues(named, context)) cases.push({ ...invalid, key, body: broken([{ ...entry, [inner.name]: invalid.value }]) });
      if (inner.required)
        cases.push({ rule: 'required', value: undefined, key, message: `The ${named.label} field is required.`, body: broken([{ ...entry, [inner.name]: undefined }]) });
    }
  }
  return cases;
}

/** What an action could write: its record, and how many rows its table, its result's table and the change feed hold. */
async function written(ctx: ResourceContext, action: ActionDef, id: number) {
  const { knex } = ctx.app;
  const count = async (table: string) => Number((await knex(table).count({ n: '*' }).first())!.n);
  const result = action.result ? ctx.registry.get(action.result).table : ctx.def.table;
  return { record: await knex(ctx.def.table).where('id', id).first(), rows: await count(ctx.def.table), results: await count(result), changes: await count('change_log') };
}

/**
 * An action on a nested collection (POST on its path): a missing parent is a 404, the action's
 * permission is required, and the answer is 200 {data: [the parent's live records], message}.
 */
export function collectionActionChecks(test: Test, context: () => ResourceContext) {
  test('collection actions: a missing parent → 404; without the permission → 403; 200 with every live record', async () => {
    const ctx = context();
    const parent = ctx.def.parent!;
    for (const action of ctx.def.actions.values()) {
      if (action.on !== 'collection') continue;
      const elsewhere = `${API}${ctx.def.path}`.replace(`{${parent.param}}`, '99999999');
      assert.is((await ctx.client.post(elsewhere, { token: ctx.token })).status, 404, `${action.name} under a missing parent`);
      for (const permission of ctx.def.access.permissions[action.name]!) {
        const { token } = await userWith(ctx.app, { allBut: [permission] });
        assert.is((await ctx.client.post(ctx.listPath, { token })).status, 403, `${action.name} without ${permission}`);
      }
      const { token } = await userWith(ctx.app, { only: ctx.def.access.permissions[action.name]! });
      const allowed = await ctx.client.post(ctx.listPath, { token });
      assert.is(allowed.status, 200, allowed.text);
      assert.is(allowed.body.message, action.message);
      const live = (await liveRows(ctx).orderBy('id').pluck('id')).map(Number);
      assert.equal(
        allowed.body.data.map((row: { id: number }) => row.id).sort((a: number, b: number) => a - b),
        live,
        'every live record of the parent',
      );
    }
  });
}
