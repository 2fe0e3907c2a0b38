// The structure vocabulary, checked from the definition alone: a record created without an
// `append` field goes last (the highest value of its table, or of its `per` group, + 1), and a value sent is kept; a
// `tree` keeps its paths and full names through creates, renames and moves (each rewritten
// descendant in the change feed), and refuses a cycle; an `aggregate` shows what the related
// records add up to.
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { scopeTest } from '../../../engine/definition/scope.ts';
import type { ResourceDef } from '../../../engine/definition/types.ts';
import { appendPer, MAX_SORT } from '../../../engine/keys/append.ts';
import { cycleMessage } from '../../../engine/keys/tree.ts';
import { liveRows, recordPath, type ResourceContext } from '../context.ts';
import { validPayload } from '../payloads.ts';

export function structureRules(def: ResourceDef) {
  const fields = [...def.fields.values()];
  return { appended: fields.filter((field) => field.append), trees: def.tree ? [def.tree] : [], aggregates: fields.filter((field) => field.aggregate && field.output) };
}

export function hasStructureRules(def: ResourceDef): boolean {
  return Object.values(structureRules(def)).some((fields) => fields.length > 0);
}

export function structureChecks(test: Test, context: () => ResourceContext) {
  const create = async (ctx: ResourceContext, body: Record<string, unknown>) => {
    const response = await ctx.client.post(ctx.listPath, { token: ctx.token, body });
    assert.is(response.status, 201, response.text);
    return (await ctx.app.knex(ctx.def.table).where('id', response.body.data.id).first()) as Record<string, any>;
  };

  test('append: a record created without the field goes last (highest + 1); a value sent is kept', async () => {
    const ctx = context();
    if (!ctx.def.operations.has('create')) return;
    for (const field of structureRules(ctx.def).appended) {
      // The highest of the table, or with `per` of the records with the same value of that field.
      const per = appendPer(field);
      for (const n of [40, 41]) {
        const payload = validPayload(ctx.def, ctx.payload, n);
        delete payload[field.name];
        const row = await create(ctx, payload);
        const others = ctx.app.knex(ctx.def.table).whereNot('id', row.id);
        if (per && row[per] == null) others.whereNull(per);
        else if (per) others.where(per, row[per]);
        const highest = Number((await others.max({ highest: field.name }).first())?.highest ?? 0);
        assert.is(Number(row[field.name]), Math.min(highest + 1, MAX_SORT), `${field.name} after ${highest}${per ? ` (per ${per} ${row[per]})` : ''}`);
      }
      if (field.writable) {
        const row = await create(ctx, { ...validPayload(ctx.def, ctx.payload, 42), [field.name]: 0 });
        assert.is(Number(row[field.name]), 0, `${field.name} sent is kept`);
      }
    }
  });

  test('tree: paths and full names follow the parent; renames and moves reach every descendant; no cycles', async () => {
    const ctx = context();
    const tree = ctx.def.tree;
    if (!tree || !ctx.def.operations.has('create') || !ctx.def.operations.has('update')) return;
    const { def, app } = ctx;
    const full = tree.fullName;
    const separator = full?.separator ?? '';
    // Values that do not ask for the name alone (a location that is not a view).
    const plain: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(full?.nameOnlyWhere ?? {})) plain[key] = def.fields.get(key)?.enum?.find((option) => option !== value) ?? !value;
    let n = 50;
    const make = async (name: string, parent: number | null, extra: Record<string, unknown> = plain) => {
      const body = { ...validPayload(def, ctx.payload, n++), ...extra, [tree.parent]: parent, ...(full && { [full.from]: `${name} ${ctx.payload.tag}` }) };
      return (await create(ctx, body)).id as number;
    };
    const row = (id: number) => app.knex(def.table).where('id', id).first() as Promise<Record<string, any>>;
    const nameOf = (name: string) => `${name} ${ctx.payload.tag}`;
    const pathOf = (ids: number[], self: number) => (tree.path.self ? `${[...ids, self].join('/')}/` : `/${ids.map((id) => `${id}/`).join('')}`);
    const a = await make('A', null);
    const b = await make('B', a);
    const c = await make('C', b);
    assert.is((await row(a))[tree.path.field], pathOf([], a), 'a root');
    assert.is((await row(c))[tree.path.field], pathOf([a, b], c), 'a grandchild');
    if (full) assert.is((await row(c))[full.field], [nameOf('A'), nameOf('B'), nameOf('C')].join(separator));

    const put = (id: number, body: Record<string, unknown>) => ctx.client.put(recordPath(ctx, id), { token: ctx.token, body });
    const changesOf = async (id: number) => Number((await app.knex('change_log').where({ resource: def.name, record_id: id }).count({ n: '*' }).first())?.n ?? 0);
    if (full) {
      const before = await changesOf(c);
      assert.is((await put(a, { [full.from]: nameOf('R') })).status, 200);
      assert.is((await row(c))[full.field], [nameOf('R'), nameOf('B'), nameOf('C')].join(separator), 'a rename reaches the grandchild');
      assert.is(await changesOf(c), before + 1, 'the rewritten descendant is in the change feed');
      for (const [key, value] of Object.entries(full.nameOnlyWhere)) {
        const alone = await make('V', a, { [key]: value });
        const below = await make('W', alone);
        assert.is((await row(alone))[full.field], nameOf('V'), `${key} ${value}: its name only`);
        assert.is((await put(a, { [full.from]: nameOf('A') })).status, 200);
        assert.is((await row(below))[full.field], [nameOf('V'), nameOf('W')].join(separator), 'below it, unchanged by a rename above');
      }
    }
    // c moves to the root, taking nothing with it; b moves under the root c, with nothing below.
    assert.is((await put(c, { [tree.parent]: null })).status, 200);
    assert.is((await row(c))[tree.path.field], pathOf([], c));
    assert.is((await put(b, { [tree.parent]: c })).status, 200);
    assert.is((await row(b))[tree.path.field], pathOf([c], b));
    // a moves under its grandchild: refused, nothing changed.
    assert.is((await put(c, { [tree.parent]: a })).status, 200);
    const unchanged = await row(a);
    for (const parent of [a, c]) {
      const refused = await put(a, { [tree.parent]: parent });
      assert.is(refused.status, 422, refused.text);
      assert.equal(refused.body.errors[tree.parent], [cycleMessage(def, tree)]);
    }
    assert.equal(await row(a), unchanged, 'nothing written');
    assert.is((await row(b))[tree.path.field], pathOf([a, c], b), 'a move reaches the grandchild');
  });

  test('aggregate: a count or sum shown is what the live related records add up to', async () => {
    const ctx = context();
    const { def, app, registry } = ctx;
    if (!def.operations.has('show')) return;
    const rows = await liveRows(ctx).orderBy(`${def.table}.id`, 'desc').limit(5).select(`${def.table}.id`);
    for (const field of structureRules(def).aggregates) {
      const { count, sum, where } = field.aggregate!;
      const [relationName, column] = (count ?? sum)!.split('.') as [string, string | undefined];
      const relation = def.relations.get(relationName)!;
      const child = registry.get(relation.resource);
      for (const { id } of rows) {
        const query = app.knex(child.table).where(relation.foreignKey, id);
        if (child.softDelete) query.whereNull('deleted_at');
        for (const [name, value] of Object.entries(relation.where ?? {})) Array.isArray(value) ? query.whereIn(name, value) : query.where(name, value);
        for (const [key, value] of Object.entries(where ?? {})) {
          const { operator, operand } = scopeTest(value);
          const [first, second] = key.split('.') as [string, string | undefined];
          if (second === undefined) query.where(first, operator, operand);
          else {
            const through = child.relations.get(first)!;
            query.whereIn(through.foreignKey, app.knex(registry.get(through.resource).table).where(second, operator, operand).select('id'));
          }
        }
        const expected =
          sum !== undefined ? await query.sum({ n: column! }).first() : column ? await query.countDistinct({ n: column }).first() : await query.count({ n: '*' }).first();
        const shown = await ctx.client.get(recordPath(ctx, id), { token: ctx.token });
        assert.is(shown.status, 200, shown.text);
        assert.is(Number(shown.body.data[field.name]), Number(expected?.n ?? 0), `${field.name} of ${def.name} ${id}`);
      }
    }
  });
}
