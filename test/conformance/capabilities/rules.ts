// The workflow vocabulary, checked from the definition alone: a document number (`sequence`) is
// the prefix and the padded next number of its counter, one more for each record created; a
// record in a locked state (`locks`) refuses what the lock forbids with its message, unchanged;
// an action that sets values (`set`) leaves them on its record, and the copies of them follow.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceDef } from '../../../engine/definition/types.ts';
import { templatePaths } from '../../../engine/definition/placeholders.ts';
import { DEFAULT_PADDING, sequenceFields } from '../../../engine/keys/sequence.ts';
import { referencedResource } from '../../../engine/definition/value-rules.ts';
import { recordPath, type ResourceContext } from '../context.ts';
import { sampleValue, validPayload } from '../payloads.ts';
import type { LockDef, TemplateDef } from '../../../engine/definition/types.ts';
import { templateFields } from '../../../engine/keys/template.ts';

/** The fields numbered when their record is created. */
export const numberedOnCreate = (def: ResourceDef) => sequenceFields(def).filter((field) => (field.sequence!.on ?? 'create') === 'create');

const literal = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

export function sequenceChecks(test: Test, context: () => ResourceContext) {
  test('sequence: each new record takes its prefix and the next number of its counter, padded', async () => {
    const ctx = context();
    const created: Array<Record<string, any>> = [];
    for (const n of [37, 38]) {
      const response = await ctx.client.post(ctx.listPath, { token: ctx.token, body: validPayload(ctx.def, ctx.payload, n) });
      assert.is(response.status, 201, response.text);
      created.push(await ctx.app.knex(ctx.def.table).where('id', response.body.data.id).first());
    }
    for (const field of numberedOnCreate(ctx.def)) {
      const sequence = field.sequence!;
      // A placeholder's value is whatever the record gives: any text without digits at its end.
      const prefix = literal(sequence.prefix ?? '').replace(/\{[^}]+\}/g, '.*?');
      const shape = new RegExp(`^(${prefix})(\\d{${sequence.padding ?? DEFAULT_PADDING},})$`);
      const [first, second] = created.map((row) => shape.exec(String(row[field.name])));
      assert.ok(first && second, `${field.name}: ${created.map((row) => row[field.name]).join(', ')} match ${shape}`);
      if (first![1] === second![1] && created[0]!.company_id === created[1]!.company_id)
        assert.is(Number(second![2]), Number(first![2]) + 1, `${field.name}: the next number, no gap`);
    }
  });
}

/** Registered for resources that create, update or delete, and declare locks. */
export function lockChecks(test: Test, context: () => ResourceContext) {
  test('locks: a record in a locked state refuses what the lock forbids (422 {message}), unchanged', async () => {
    const ctx = context();
    const { knex } = ctx.app;
    // `{label}` is the label in lower case, `{field}` the locked row's value.
    const message = (text: string, row: Record<string, unknown>) =>
      text.replace(/\{([a-z][a-z0-9_]*)\}/g, (_, name: string) => (name === 'label' ? ctx.def.label.toLowerCase() : String(row[name] ?? '')));
    for (const lock of ctx.def.locks) {
      const response = await ctx.client.post(ctx.listPath, { token: ctx.token, body: validPayload(ctx.def, ctx.payload, 39) });
      assert.is(response.status, 201, response.text);
      const id = response.body.data.id as number;
      const path = recordPath(ctx, id);
      await knex(ctx.def.table)
        .where('id', id)
        .update(Object.fromEntries(Object.entries(lock.when).map(([column, values]) => [column, lockedValue(ctx, column, values)])));
      const before = await knex(ctx.def.table).where('id', id).first();
      const attempts: Array<[string, () => Promise<{ status: number; body: any; text: string }>]> = [];
      if (lock.forbid?.includes('update') && ctx.def.operations.has('update')) attempts.push(['update', () => ctx.client.put(path, { token: ctx.token, body: {} })]);
      if (lock.forbid?.includes('delete') && ctx.def.operations.has('delete')) attempts.push(['delete', () => ctx.client.delete(path, { token: ctx.token })]);
      // A field lock: one of its fields sent with another record than the stored one.
      const field = (lock.fields ?? []).map((name) => ctx.def.fields.get(name)!).find((one) => one.type === 'integer' && referencedResource(ctx.def, one));
      if (field && ctx.def.operations.has('update')) {
        const target = ctx.registry.get(referencedResource(ctx.def, field)!);
        const query = knex(target.table)
          .whereNot('id', before[field.name] ?? 0)
          .orderBy('id')
          .first('id');
        if (target.softDelete) query.whereNull('deleted_at');
        const other = (await query)?.id;
        if (other !== undefined) attempts.push([`update of ${field.name}`, () => ctx.client.put(path, { token: ctx.token, body: { [field.name]: other } })]);
      }
      assert.ok(attempts.length > 0, `${JSON.stringify(lock.when)}: something to refuse`);
      for (const [what, attempt] of attempts) {
        const refused = await attempt();
        assert.is(refused.status, 422, `${what} when ${JSON.stringify(lock.when)}: ${refused.text}`);
        assert.equal(refused.body, { message: message(lock.message, before) });
        assert.equal(await knex(ctx.def.table).where('id', id).first(), before, `${what}: nothing changed`);
      }
    }
  });
}

/** A value that puts a column in the lock's state: the first one listed, or one other than `{'<>': value}`'s. */
function lockedValue(ctx: ResourceContext, column: string, values: LockDef['when'][string]): unknown {
  if (Array.isArray(values)) return values[0];
  const field = ctx.def.fields.get(column)!;
  const other = values['<>'];
  if (field.enum) return field.enum.find((value) => value !== String(other));
  if (field.type === 'boolean') return other === null ? true : !other;
  const sample = sampleValue({ ...field, references: undefined }, ctx.payload, 41);
  return String(sample) === String(other) ? sampleValue({ ...field, references: undefined }, ctx.payload, 42) : sample;
}

/** Registered for resources that create and have an action with `set`. */
export function setChecks(test: Test, context: () => ResourceContext) {
  test('set: an action leaves the values it sets on its record, and the copies of them follow', async () => {
    const ctx = context();
    const { knex } = ctx.app;
    for (const action of ctx.def.actions.values()) {
      if (!action.set || action.on === 'collection') continue;
      const created = await ctx.client.post(ctx.listPath, { token: ctx.token, body: validPayload(ctx.def, ctx.payload, 40) });
      assert.is(created.status, 201, created.text);
      const id = created.body.data.id as number;
      // A record the action may run on: the first value `when` allows.
      const allowed = Object.fromEntries(Object.entries(action.when ?? {}).map(([column, values]) => [column, values[0]]));
      if (Object.keys(allowed).length > 0) await knex(ctx.def.table).where('id', id).update(allowed);
      const before = await knex(ctx.def.table).where('id', id).first();
      const response = await ctx.client.post(`${recordPath(ctx, id)}/${action.name}`, { token: ctx.token });
      assert.is(response.status, action.creates ? 201 : 200, `${action.name}: ${response.text}`);
      const row = await knex(ctx.def.table).where('id', id).first();
      for (const [column, value] of Object.entries(action.set)) {
        if (value === 'now') {
          assert.ok(row[column], `${action.name}: ${column} set to now`);
          continue;
        }
        const expected = written(value, before[column]);
        assert.is(String(row[column]), String(expected), `${action.name}: ${column} from ${before[column]}`);
        const boolean = ctx.def.fields.get(column)?.type === 'boolean';
        if (!action.result && ctx.def.fields.get(column)?.output)
          assert.is(response.body.data[column], boolean ? Boolean(expected) : expected, `${action.name}: ${column} answered`);
        for (const copy of copiesOf(ctx, column)) {
          const copies = await knex(copy.table).where(copy.via, id).pluck(copy.field);
          assert.equal(
            copies.map(String),
            copies.map(() => String(expected)),
            `${action.name}: ${copy.table}.${copy.field} follows ${column}`,
          );
        }
      }
    }
  });
}

/** What a `set` value writes over the stored one: `toggle` turns a flag over, a map picks by the stored value. */
function written(value: unknown, stored: unknown): unknown {
  if (value === 'toggle') return Number(!Number(stored));
  if (value !== null && typeof value === 'object') return (value as Record<string, string>)[String(stored)] ?? stored;
  return typeof value === 'boolean' ? Number(value) : value;
}

/** The stored copies (`related`) other resources keep of a column of this resource's records. */
function copiesOf(ctx: ResourceContext, column: string): Array<{ table: string; via: string; field: string }> {
  return [...ctx.registry.all()].flatMap((def) =>
    [...def.fields.values()].flatMap((field) => {
      const [relationName, copied] = field.related?.split('.') ?? [];
      const relation = relationName ? def.relations.get(relationName) : undefined;
      if (copied !== column || !relation || ctx.registry.get(relation.resource).table !== ctx.def.table) return [];
      return [{ table: def.table, via: relation.foreignKey, field: field.name }];
    }),
  );
}

/** Registered for resources that create and name records from their values (`template`). */
export function templateChecks(test: Test, context: () => ResourceContext) {
  test('template: a new record is named from its values, and renamed when an update changes one', async () => {
    const ctx = context();
    const { knex } = ctx.app;
    const created = await ctx.client.post(ctx.listPath, { token: ctx.token, body: validPayload(ctx.def, ctx.payload, 47) });
    assert.is(created.status, 201, created.text);
    const id = created.body.data.id as number;
    for (const field of templateFields(ctx.def)) {
      const row = await knex(ctx.def.table).where('id', id).first();
      const name = expectedName(field.template!, row);
      assert.ok(!name.includes('{'), name);
      assert.is(row[field.name], name, `${field.name} stored`);
      if (field.output) assert.is(created.body.data[field.name], name, `${field.name} answered`);
      // A value the name is made of, changed: the name follows.
      for (const placeholder of templatePaths(field.template!.text)) {
        const source = ctx.def.fields.get(placeholder);
        const other = source?.writable ? source.enum?.find((value) => value !== String(row[placeholder])) : undefined;
        if (other === undefined) continue;
        const updated = await ctx.client.put(recordPath(ctx, id), { token: ctx.token, body: { [placeholder]: other } });
        assert.is(updated.status, 200, updated.text);
        const renamed = expectedName(field.template!, { ...row, [placeholder]: other });
        assert.is.not(renamed, name, `${placeholder} changes the name`);
        assert.is((await knex(ctx.def.table).where('id', id).first())[field.name], renamed, `${field.name} renamed when ${placeholder} is ${other}`);
      }
    }
  });
}

/** The name the definition says, worked out here from the row: each placeholder's value, in its words when given. */
function expectedName(template: TemplateDef, row: Record<string, unknown>): string {
  let text = template.text;
  for (const name of templatePaths(template.text)) {
    const value = String(row[name] ?? '');
    text = text.replaceAll(`{${name}}`, template.values?.[name]?.[value] ?? value);
  }
  return text;
}
