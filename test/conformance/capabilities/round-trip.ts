// An export imported into another installation, for every resource that allows create: records
// created here are exported as CSV (the resource's default fields, a document's lines as JSON,
// the ids of a record's own lists (its tags) with their names, and the name of each record they
// point at beside its id), then imported into a second
// installation (a fresh database of the same seed, test/helpers/app.ts secondApp). What they (and
// their lines) point at is found there by name, as the import resolves it; a record the seed does
// not have there (one an earlier suite created here) is brought along first, by the same export
// and import of its own resource. A dry run rejects no row and writes nothing; the import writes
// every row; and the export of the imported rows is the original's, ids aside (the records' own,
// their lines', their parents', the ids of what they point at or list, whose names are compared instead)
// and what the engine stamps (timestamps, creator, company).
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import type { Registry } from '../../../engine/definition/registry.ts';
import type { ResourceDef } from '../../../engine/definition/types.ts';
import { csvLine } from '../../../engine/transfer/csv-write.ts';
import { exportableColumns, type LinesColumn } from '../../../engine/transfer/export/export-columns.ts';
import { idLists } from '../../../engine/transfer/id-lists.ts';
import { parseCsv } from '../../../engine/transfer/import/parse-csv.ts';
import { namedRelations } from '../../../engine/transfer/import/resolve-names.ts';
import { API, secondApp, type TestApp } from '../../helpers/app.ts';
import type { ResourceContext } from '../context.ts';
import { validPayload, writableFields } from '../payloads.ts';

type Installation = TestApp & { token: string };
type Rows = Array<Record<string, string>>;

/** What differs between installations whatever the data: stamped by the engine, or an id. */
const STAMPED = new Set(['id', 'created_at', 'updated_at', 'deleted_at', 'creator_id', 'company_id']);

export function roundTripChecks(test: Test, context: () => ResourceContext) {
  test('round trip: an export imported into a fresh installation passes a dry run, then exports the same rows back', async () => {
    const ctx = context();
    const { def, registry } = ctx;
    const here: Installation = Object.assign(ctx.app, { token: ctx.token });
    const there = await secondApp(ctx.target);
    const ids = new Set<number>();
    const bodies = new Map<number, Record<string, unknown>>();
    for (const n of [70, 71]) {
      const body = validPayload(def, ctx.payload, n);
      const response = await ctx.client.post(ctx.listPath, { token: ctx.token, body });
      assert.is(response.status, 201, response.text);
      // Two bodies may make one record (an upsert on the same keys).
      ids.add(response.body.data.id);
      bodies.set(response.body.data.id, body);
    }
    const original = (await exportRows(here, ctx.listPath, def, registry)).filter((row) => ids.has(Number(row.id)));
    assert.is(original.length, ids.size, 'the export has the records created');

    const copy = { here, there, registry };
    const parentThere = def.parent ? await bringAlong(copy, registry.get(def.parent.resource), ctx.parentId!, 0) : undefined;
    for (const row of original) await bringReferences(copy, def, row, 0);
    const path = listPath(def, parentThere);
    // A required value no export writes: a secret (a user's password) is never shown, so the file
    // gets the column a person would add. A document's lines are a column of the export.
    const exported = exportableColumns(def, registry);
    const added = writableFields(def).filter((field) => field.required && !field.output && field.name !== def.parent?.foreignKey && !exported.has(field.name));
    const withAdded = original.map((row) => ({ ...row, ...Object.fromEntries(added.map((field) => [field.name, String(bodies.get(Number(row.id))![field.name])])) }));
    const file = importFile(def, withAdded);
    const count = async () => Number((await there.knex(def.table).count({ n: '*' }).first())!.n);
    const before = await count();
    const last = Number((await there.knex(def.table).max({ id: 'id' }).first())?.id ?? 0);

    const dry = await importInto(there, path, file, { dry_run: '1' });
    assert.equal(dry.body.rejected, [], 'the dry run rejects no row');
    assert.is(dry.body.created + dry.body.updated, original.length);
    assert.is(await count(), before, 'a dry run writes nothing');
    const real = await importInto(there, path, file, {});
    assert.equal(real.body.rejected, []);
    assert.is(real.body.created, original.length, 'every row is created');

    const imported = (await exportRows(there, path, def, registry)).filter((row) => Number(row.id) > last);
    assert.equal(imported.map(comparable(def, registry)), original.map(comparable(def, registry)), 'the imported rows export as the originals');
  });
}

/** The CSV export of a list path (default fields, and every relation's name where the export offers it), as rows of text. */
async function exportRows(app: Installation, path: string, def: ResourceDef, registry: Registry): Promise<Rows> {
  const fields = [...exportableColumns(def, registry).keys()].join(',');
  const response = await request(new URL(`${path}/export?format=csv&fields=${fields}`, app.client.baseUrl), { headers: { authorization: `Bearer ${app.token}` } });
  const text = await response.body.text();
  assert.is(response.statusCode, 200, text);
  return parseCsv(text).map((row) => row.values as Record<string, string>);
}

/** The rows as an import file: the exported CSV without the records' ids (a row with an id updates that record) and their parents' (the path's). */
function importFile(def: ResourceDef, rows: Rows): string {
  const header = Object.keys(rows[0] ?? {}).filter((name) => name !== 'id' && name !== def.parent?.foreignKey);
  return `\uFEFF${csvLine(header)}${rows.map((row) => csvLine(header.map((name) => row[name]))).join('')}`;
}

async function importInto(app: Installation, path: string, file: string, query: Record<string, string>) {
  const response = await app.client.post(`${path}/import`, { token: app.token, rawBody: file, headers: { 'content-type': 'text/csv' }, query });
  assert.is(response.status, 200, `${path}/import: ${response.text}`);
  return response;
}

function listPath(def: ResourceDef, parentId: number | undefined): string {
  return `${API}${def.path}`.replace(`{${def.parent?.param}}`, String(parentId));
}

/**
 * A row without what differs between installations: stamps, its parent, the ids of what it points
 * at (their names stay), a time the engine stamps (when a milestone was completed), and what the engine numbers per installation and a file cannot set: a
 * document number from its sequence (the definition's, or one a behaviour draws, as the field's
 * description says: a stock operation's WH/OUT/00001, or one made of the record's id: BO/<id>), a
 * place appended last, a tree's path of ids.
 * A document's lines likewise: each without its id and the ids of what it points at.
 */
function comparable(def: ResourceDef, registry: Registry) {
  const references = new Set([...def.relations.values()].filter((relation) => relation.kind === 'belongsTo').map((relation) => relation.foreignKey));
  const numbered = new Set(
    [...def.fields.values()]
      .filter((field) => !field.writable && (field.append || field.sequence || /\bsequence\b|<id>/i.test(field.description ?? '')))
      .map((field) => field.name),
  );
  if (def.tree) numbered.add(def.tree.path.field);
  // A record's lists of ids (its tags): the ids differ, their names (`tags_names`) are compared.
  for (const list of idLists(def, registry)) numbered.add(list.field.name);
  const stampedTimes = new Set([...def.fields.values()].filter((field) => !field.writable && field.type === 'datetime').map((field) => field.name));
  const differs = (name: string) => STAMPED.has(name) || stampedTimes.has(name) || name === def.parent?.foreignKey || references.has(name) || numbered.has(name);
  const lines = linesColumns(def, registry);
  const line = (column: LinesColumn) => {
    const ids = new Set(['id', ...[...column.child.relations.values()].filter((relation) => relation.kind === 'belongsTo').map((relation) => relation.foreignKey)]);
    return (entry: Record<string, unknown>) => Object.fromEntries(Object.entries(entry).filter(([name]) => !ids.has(name)));
  };
  return (row: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(row)
        .filter(([name]) => !differs(name))
        .map(([name, value]) => {
          const column = lines.get(name);
          return [name, column ? (JSON.parse(value) as Array<Record<string, unknown>>).map(line(column)) : value];
        }),
    );
}

/** The columns of a resource's export that hold a document's lines, by name. */
function linesColumns(def: ResourceDef, registry: Registry): Map<string, LinesColumn> {
  return new Map([...exportableColumns(def, registry).values()].filter((column): column is LinesColumn => column.kind === 'lines').map((column) => [column.name, column]));
}

interface Copy {
  here: Installation;
  there: Installation;
  registry: Registry;
}

/** The records a row and its lines name (by the relations an import resolves by name), made to exist in the other installation. */
async function bringReferences(copy: Copy, def: ResourceDef, row: Record<string, unknown>, depth: number): Promise<void> {
  for (const named of namedRelations(def, copy.registry)) {
    if (named.foreignKey === def.parent?.foreignKey) continue;
    const id = row[named.foreignKey];
    if (id === undefined || id === '' || id === null || row[named.column] === undefined || row[named.column] === '' || row[named.column] === null) continue;
    // A record whose name others here share (the suites' sample tasks) cannot be found by it, nor
    // can a document the engine numbers (a purchase agreement's PT/1: its copy there gets another
    // number) unless one there has that number: an optional reference to one (a task's parent, a
    // purchase order's agreement) is left out of the file and of the comparison.
    const byName = (app: Installation) => app.knex(named.target.table).where(named.by[0]!, row[named.column] as string);
    const ambiguous = async () => Number((await byName(copy.here).count({ n: '*' }).first())!.n) > 1;
    const numbered = async () => !named.target.fields.get(named.by[0]!)?.writable && (await byName(copy.there).first()) === undefined;
    if (!def.fields.get(named.foreignKey)?.required && ((await ambiguous()) || (await numbered()))) {
      // A CSV cell is blanked; a line's value (JSON) is null.
      const blank = typeof id === 'string' ? '' : null;
      row[named.foreignKey] = blank;
      row[named.column] = blank;
      continue;
    }
    await bringAlong(copy, named.target, Number(id), depth + 1);
  }
  // A record's lists of ids (its tags): each record listed is made to exist there, and the list
  // holds the ids there (the import finds them by the names beside them, or, without names, by these ids).
  for (const list of idLists(def, copy.registry)) {
    const text = row[list.field.name];
    if (typeof text !== 'string' || text === '') continue;
    const there: number[] = [];
    for (const id of JSON.parse(text) as number[]) there.push(await bringAlong(copy, list.target, id, depth + 1));
    row[list.field.name] = JSON.stringify(there);
  }
  for (const column of linesColumns(def, copy.registry).values()) {
    const text = row[column.name];
    if (typeof text !== 'string' || text === '') continue;
    const lines = JSON.parse(text) as Array<Record<string, unknown>>;
    for (const line of lines) await bringReferences(copy, column.child, line, depth);
    row[column.name] = JSON.stringify(lines);
  }
}

/**
 * The id, in the other installation, of the record `id` of `def` here: the one of the same name
 * when it has one (the seed's), else a copy made by exporting it here and importing it there.
 */
async function bringAlong(copy: Copy, def: ResourceDef, id: number, depth: number): Promise<number> {
  const { here, there, registry } = copy;
  const record = await here.knex(def.table).where('id', id).first();
  assert.ok(record, `${def.name} ${id} exists`);
  const by = namedBy(def, registry);
  // Of several of that name, the one with the id here: as the import takes the id beside a shared name (two taxes "15%").
  const find = async () => {
    const query = there.knex(def.table).where(by, record[by]).select('id');
    if (def.softDelete) query.whereNull('deleted_at');
    if (def.parent) query.whereIn(def.parent.foreignKey, [await bringAlong(copy, registry.get(def.parent.resource), record[def.parent.foreignKey], depth + 1)]);
    const found = (await query).map((row) => Number(row.id));
    return found.length === 1 ? found[0] : found.find((other) => other === id);
  };
  const found = await find();
  if (found !== undefined) return found;
  assert.ok(depth < 6 && def.operations.has('create') && def.operations.has('list'), `${def.name} "${record[by]}" cannot be brought along`);
  const parentThere = def.parent ? await bringAlong(copy, registry.get(def.parent.resource), record[def.parent.foreignKey], depth + 1) : undefined;
  const rows = (await exportRows(here, listPath(def, def.parent ? record[def.parent.foreignKey] : undefined), def, registry)).filter((row) => Number(row.id) === id);
  assert.is(rows.length, 1, `${def.name} ${id} is in its export: ${JSON.stringify(record)}`);
  for (const row of rows) await bringReferences(copy, def, row, depth);
  const imported = await importInto(there, listPath(def, parentThere), importFile(def, rows), {});
  assert.equal(imported.body.rejected, [], `${def.name} "${record[by]}" brought along`);
  const copied = await find();
  assert.ok(copied !== undefined, `${def.name} "${record[by]}" found after it was brought along`);
  return copied!;
}

/** The column a record of `def` is named by in an import (as a relation to it resolves it). */
function namedBy(def: ResourceDef, registry: Registry): string {
  const through = [...registry.all()].flatMap((other) => namedRelations(other, registry)).find((named) => named.target.name === def.name);
  const by = through?.by[0] ?? ['name', 'code'].find((name) => def.fields.has(name));
  assert.ok(by, `${def.name} has a name`);
  return by!;
}
