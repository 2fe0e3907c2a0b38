// The value vocabulary, checked from the definition alone: a copy (`related`) equals its source
// and follows a change of it made through the API; a default read when written (`defaultFrom`) is
// what its source says; a null that means the default gets it; a reference outside its domain
// (`referencesWhere` on the record's own values or with its own message) or of another company
// (`checkCompany`) is a 422 naming the field; a stamp (`stampedBy`) is set once, kept, cleared.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import type { DefaultSourceFormat } from '../../../engine/definition/format.ts';
import { parseSort } from '../../../engine/definition/normalize.ts';
import { applyScope, scopeTest } from '../../../engine/definition/scope.ts';
import type { FieldDef, ResourceDef } from '../../../engine/definition/types.ts';
import { defaultSources, isOwnValue, referencedResource } from '../../../engine/definition/value-rules.ts';
import { formatTimestamp } from '../../../engine/serialize/value-formats.ts';
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
    defaults: fields.filter((field) => field.defaultFrom !== undefined && !field.required),
    nullDefaults: fields.filter((field) => field.nullMeans === 'default' && field.writable),
    domains: fields.filter(
      (field) =>
        field.type !== 'ids' &&
        Object.entries(field.referencesWhere ?? {}).some(([, c]) => !isOwnValue(c) || !c.orNull) &&
        (field.referencesMessage || Object.values(field.referencesWhere ?? {}).some(isOwnValue)),
    ),
    companyChecks: fields.filter((field) => field.checkCompany && field.writable),
    stamps: fields.filter((field) => field.stampedBy),
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

  test('defaultFrom: a record created without the field gets what its default reads (none found: a 422 where it must)', async () => {
    const ctx = context();
    const admin = await ctx.app.knex('users').where('email', 'admin@example.com').first('default_company_id');
    for (const [index, field] of valueRules(ctx.def).defaults.entries()) {
      // A payload of its own for each field: a unique field (a location's barcode) differs.
      const payload = validPayload(ctx.def, ctx.payload, 31 + 1000 * index);
      delete payload[field.name];
      // The user's default company comes first, where the company scope fills it (the policy).
      const policyFills = ctx.def.access.companyScope?.assign && field.name === ctx.def.access.companyScope.column && field.writable;
      const expected = policyFills ? admin.default_company_id : await expectedDefault(ctx, field, payload);
      if ((expected === null || expected === undefined) && field.defaultRequired) {
        const refused = await ctx.client.post(ctx.listPath, { token: ctx.token, body: payload });
        assert.is(refused.status, 422, `${field.name}: ${refused.text}`);
        const message = typeof field.defaultRequired === 'string' ? field.defaultRequired : `The ${field.name} field could not be resolved automatically.`;
        assert.equal(refused.body.errors[field.name], [message]);
        continue;
      }
      const before = Date.now();
      const record = await stored(ctx, (await create(ctx, payload)).id);
      if (expected === NOW) {
        const at = Date.parse(`${String(record[field.name]).replace(' ', 'T').slice(0, 23)}Z`);
        assert.ok(at >= before - 2000 && at <= Date.now() + 2000, `${field.name} is now (${record[field.name]})`);
      } else {
        // A date-time read from the record's values is as sent; the stored one has microseconds.
        const [got, want] = field.type === 'datetime' ? [formatTimestamp(record[field.name]), formatTimestamp(expected)] : [record[field.name], expected];
        assert.ok(same(got, want), `${field.name}: ${got}, expected ${want}`);
      }
    }
  });

  test('nullMeans default: a null sent is the default, on create and on update', async () => {
    const ctx = context();
    for (const field of valueRules(ctx.def).nullDefaults) {
      const payload = { ...validPayload(ctx.def, ctx.payload, 32), [field.name]: null };
      const expected = await expectedDefault(ctx, field, payload);
      const data = await create(ctx, payload);
      assert.ok(same((await stored(ctx, data.id))[field.name], expected), `${field.name} on create`);
      const other = sampleValue(field, ctx.payload, 5, ctx.def);
      assert.is((await ctx.client.put(recordPath(ctx, data.id), { token: ctx.token, body: { [field.name]: other } })).status, 200);
      const cleared = await ctx.client.put(recordPath(ctx, data.id), { token: ctx.token, body: { [field.name]: null } });
      assert.is(cleared.status, 200, cleared.text);
      assert.ok(same((await stored(ctx, data.id))[field.name], expected), `${field.name} on update`);
    }
  });

  test('referencesWhere: a record outside the domain is a 422 naming the field, nothing written', async () => {
    const ctx = context();
    for (const field of valueRules(ctx.def).domains) {
      const target = ctx.registry.get(referencedResource(ctx.def, field)!);
      const payload = validPayload(ctx.def, ctx.payload, 33);
      const id = payload[field.name] as number;
      const row = await ctx.app.knex(target.table).where('id', id).first();
      // The record the payload names is moved outside the domain for the request, then put back.
      const outside: Record<string, unknown> = {};
      for (const [column, condition] of Object.entries(field.referencesWhere!)) {
        if (isOwnValue(condition)) {
          if (condition.orNull) continue;
          const mine = await ownValue(ctx, payload, condition.field);
          const other = await otherValue(ctx, target, target.fields.get(column)!, mine);
          if (other === undefined || other === null) continue;
          outside[column] = other;
        } else outside[column] = violating(target.fields.get(column)!, condition);
        break;
      }
      assert.ok(Object.keys(outside).length > 0, `${field.name}: a condition to break`);
      const before = await ctx.app.knex(ctx.def.table).count({ n: '*' }).first();
      await ctx.app.knex(target.table).where('id', id).update(outside);
      try {
        const response = await ctx.client.post(ctx.listPath, { token: ctx.token, body: payload });
        assert.is(response.status, 422, `${field.name}: ${response.text}`);
        assert.ok(response.body.errors?.[field.name], `${field.name} named: ${response.text}`);
        if (field.referencesMessage && !/\{/.test(field.referencesMessage)) assert.equal(response.body.errors[field.name], [field.referencesMessage]);
        assert.equal(await ctx.app.knex(ctx.def.table).count({ n: '*' }).first(), before, 'nothing written');
      } finally {
        await ctx.app
          .knex(target.table)
          .where('id', id)
          .update(Object.fromEntries(Object.keys(outside).map((column) => [column, row[column]])));
      }
    }
  });

  test("checkCompany: a record of another company is a 422 naming the field, with the original's message", async () => {
    const ctx = context();
    const { knex } = ctx.app;
    for (const field of valueRules(ctx.def).companyChecks) {
      const target = ctx.registry.get(referencedResource(ctx.def, field)!);
      const payload = validPayload(ctx.def, ctx.payload, 34);
      const id = payload[field.name] as number;
      if (id === undefined) continue; // left out of the payload (a payment term when a due date is given)
      const row = await knex(target.table).where('id', id).first();
      const company = await knex('companies').orderBy('id').first();
      const { id: _id, ...copy } = company;
      const [other] = await knex('companies').insert({ ...copy, name: `Elsewhere ${ctx.payload.tag} ${field.name}` });
      await knex(target.table).where('id', id).update({ company_id: other });
      try {
        const response = await ctx.client.post(ctx.listPath, { token: ctx.token, body: { ...payload, company_id: payload.company_id ?? company.id } });
        assert.is(response.status, 422, `${field.name}: ${response.text}`);
        const name = row.name ?? `#${row.id}`;
        assert.equal(response.body.errors[field.name], [`These records belong to a different company: ${name}. Change them or switch the company back.`]);
      } finally {
        await knex(target.table).where('id', id).update({ company_id: row.company_id });
        await knex('companies').where('id', other).delete();
      }
    }
  });

  test('stampedBy: the time is set when the flag becomes true, kept while it stays, cleared when it becomes false', async () => {
    const ctx = context();
    for (const field of valueRules(ctx.def).stamps) {
      const flag = field.stampedBy!;
      const open = await create(ctx, { ...validPayload(ctx.def, ctx.payload, 35), [flag]: false });
      assert.is(open[field.name], null, `${field.name} empty while ${flag} is false`);
      const put = async (body: Record<string, unknown>) => {
        const response = await ctx.client.put(recordPath(ctx, open.id), { token: ctx.token, body });
        assert.is(response.status, 200, response.text);
        return response.body.data[field.name];
      };
      const stamped = await put({ [flag]: true });
      assert.match(String(stamped), /^\d{4}-\d{2}-\d{2}T/, `${field.name} set`);
      assert.is(await put({ [flag]: true }), stamped, 'kept');
      assert.is(await put({}), stamped, `kept when ${flag} is not sent`);
      assert.is(await put({ [flag]: false }), null, 'cleared');
      const done = await create(ctx, { ...validPayload(ctx.def, ctx.payload, 36), [flag]: true });
      assert.match(String(done[field.name]), /^\d{4}-\d{2}-\d{2}T/, `${field.name} set on create`);
    }
  });
}

const NOW = Symbol('now');

/** What the field's default gives a record with these values, worked out from the definition and the database. */
async function expectedDefault(ctx: ResourceContext, field: FieldDef, record: Record<string, any>): Promise<unknown> {
  for (const source of defaultSources(field)) {
    const value = await sourceValue(ctx, source, record);
    if (value === NOW || (value !== null && value !== undefined)) return value;
  }
  return field.default ?? null;
}

async function sourceValue(ctx: ResourceContext, source: DefaultSourceFormat, record: Record<string, any>): Promise<unknown> {
  const { knex } = ctx.app;
  if (typeof source === 'string') return pathValue(ctx, record, source);
  if ('now' in source) return NOW;
  if ('user' in source) {
    const admin = await knex('users').where('email', 'admin@example.com').first('id', 'default_company_id');
    return source.user === 'id' ? admin.id : admin.default_company_id;
  }
  const target = ctx.registry.get(source.first);
  const column = source.column ?? 'id';
  const query = knex(target.table).first(`${target.table}.${column} as value`);
  if (target.softDelete) query.whereNull(`${target.table}.deleted_at`);
  applyScope(query, target, ctx.registry, knex);
  if (source.column) query.whereNotNull(`${target.table}.${column}`);
  for (const [key, condition] of Object.entries(source.where ?? {})) {
    const [relationName, relationColumn] = key.includes('.') ? (key.split('.') as [string, string]) : [undefined, key];
    const relation = relationName ? target.relations.get(relationName)! : undefined;
    const table = relation ? ctx.registry.get(relation.resource).table : target.table;
    const mine = isOwnValue(condition) ? await pathValue(ctx, record, condition.field) : undefined;
    const where = (builder: any) => {
      if (isOwnValue(condition)) {
        return mine === null || mine === undefined ? builder.whereNull(`${table}.${relationColumn}`) : builder.where(`${table}.${relationColumn}`, mine);
      }
      const { operator, operand } = scopeTest(condition);
      return builder.where(`${table}.${relationColumn}`, operator, operand);
    };
    if (relation) query.whereIn(`${target.table}.${relation.foreignKey}`, where(knex(table).select(`${table}.id`)));
    else where(query);
  }
  for (const sort of parseSort(source.sort ?? 'id')) query.orderBy(`${target.table}.${sort.name}`, sort.descending ? 'desc' : 'asc');
  return (await query.orderBy(`${target.table}.id`))?.value ?? null;
}

/** A value of the stored record at a path: a field, or a column of the record a belongsTo relation names. */
async function pathValue(ctx: ResourceContext, record: Record<string, any>, path: string): Promise<unknown> {
  const [first, column] = path.split('.') as [string, string | undefined];
  if (column === undefined) return record[first];
  const relation = ctx.def.relations.get(first)!;
  const id = record[relation.foreignKey];
  if (id === null || id === undefined) return null;
  return (await ctx.app.knex(ctx.registry.get(relation.resource).table).where('id', id).first(column))?.[column] ?? null;
}

/** The payload's value at a path (its own field, or a column of the record a reference of it names). */
async function ownValue(ctx: ResourceContext, payload: Record<string, unknown>, path: string): Promise<unknown> {
  const [first, column] = path.split('.') as [string, string | undefined];
  if (column === undefined) return payload[first] ?? null;
  const relation = ctx.def.relations.get(first)!;
  const id = payload[relation.foreignKey];
  return id == null ? null : ((await ctx.app.knex(ctx.registry.get(relation.resource).table).where('id', id).first(column))?.[column] ?? null);
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

/** A value that breaks a fixed condition. */
function violating(field: FieldDef, condition: Parameters<typeof scopeTest>[0]): unknown {
  const { operator, operand } = scopeTest(condition);
  if (operator === '<>') return operand;
  if (typeof operand === 'boolean') return !operand;
  if (typeof operand === 'number') return operator === '>' || operator === '>=' ? operand - 1 : operand + 1;
  return field.enum?.find((value) => value !== operand) ?? `not-${operand}`;
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
