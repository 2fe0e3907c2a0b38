// An export imported into another installation, for every resource that allows create: records
// created here are exported as CSV (the resource's default fields, and the name of each record
// they point at beside its id), then imported into a second installation (a fresh database of the
// same seed, test/helpers/app.ts secondApp). What they point at is found there by name, as the
// import resolves it; a record the seed does not have there (one an earlier suite created here) is
// brought along first, by the same export and import of its own resource. A dry run rejects no
// row and writes nothing; the import writes every row; and the export of the imported rows is the
// original's, ids aside (the records' own, their parents', the ids of what they point at, whose
// names are compared instead) and what the engine stamps (timestamps, creator, company).
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import type { Registry } from '../../../engine/definition/registry.ts';
import type { ResourceDef } from '../../../engine/definition/types.ts';
import { csvLine } from '../../../engine/transfer/csv-write.ts';
import { exportableColumns } from '../../../engine/transfer/export/export-columns.ts';
import { parseCsv } from '../../../engine/transfer/import/parse-csv.ts';
import { namedRelations } from '../../../engine/transfer/import/resolve-names.ts';
import { API, secondApp, type TestApp } from '../../helpers/app.ts';
import type { ResourceContext } from '../context.ts';
import { validPayload, writableFields } from '../payloads.ts';

type Installation = TestApp & { token: string };
type Rows = Array<Record<string, string>>;

const LISTS = ['records', 'ids'];

/** The lists a create requires that no export writes (a document's lines). */
function unexportedLists(def: ResourceDef) {
  return writableFields(def).filter((field) => field.required && !field.output && LISTS.includes(field.type));
}

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
    // gets the column a person would add; a document's lines are records of their own resource,
    // which the document's export does not carry (see below).
    const unexported = writableFields(def).filter((field) => field.required && !field.output && field.name !== def.parent?.foreignKey);
    const added = unexported.filter((field) => !LISTS.includes(field.type));
    const withAdded = original.map((row) => ({ ...row, ...Object.fromEntries(added.map((field) => [field.name, String(bodies.get(Number(row.id))![field.name])])) }));
    const file = importFile(def, withAdded);
    const count = async () => Number((await there.knex(def.table).count({ n: '*' }).first())!.n);
    const before = await count();
    const last = Number((await there.knex(def.table).max({ id: 'id' }).first())?.id ?? 0);

    const dry = await importInto(there, path, file, { dry_run: '1' });
    const missing = unexportedLists(def);
    if (missing.length > 0) {
      // Not met yet (issue 40): a document's export has no column for its lines (order lines, invoice
      // lines), which its create requires, so the document cannot be imported back from it. Each row
      // is rejected for that alone: everything the export carries imports.
      const required = Object.fromEntries(missing.map((field) => [field.name, [`The ${field.label} field is required.`]]));
      assert.equal(
        dry.body.rejected,
        original.map((_, index) => ({ row: index + 2, errors: required })),
        'rejected only for the lines the export does not carry',
      );
      return;
    }
    assert.equal(dry.body.rejected, [], 'the dry run rejects no row');
    assert.is(dry.body.created + dry.body.updated, original.length);
    assert.is(await count(), before, 'a dry run writes nothing');
    const real = await importInto(there, path, file, {});
    assert.equal(real.body.rejected, []);
    assert.is(real.body.created, original.length, 'every row is created');

    const imported = (await exportRows(there, path, def, registry)).filter((row) => Number(row.id) > last);
    assert.equal(imported.map(comparable(def)), original.map(comparable(def)), 'the imported rows export as the originals');
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
 * description says: a stock operation's WH/OUT/00001), a place appended last, a tree's path of ids.
 */
function comparable(def: ResourceDef) {
  const references = new Set([...def.relations.values()].filter((relation) => relation.kind === 'belongsTo').map((relation) => relation.foreignKey));
  const numbered = new Set(
    [...def.fields.values()].filter((field) => !field.writable && (field.append || field.sequence || /\bsequence\b/i.test(field.description ?? ''))).map((field) => field.name),
  );
  if (def.tree) numbered.add(def.tree.path.field);
  const stampedTimes = new Set([...def.fields.values()].filter((field) => !field.writable && field.type === 'datetime').map((field) => field.name));
  const differs = (name: string) => STAMPED.has(name) || stampedTimes.has(name) || name === def.parent?.foreignKey || references.has(name) || numbered.has(name);
  return (row: Record<string, string>) => Object.fromEntries(Object.entries(row).filter(([name]) => !differs(name)));
}

interface Copy {
  here: Installation;
  there: Installation;
  registry: Registry;
}

/** The records a row names (by the relations an import resolves by name), made to exist in the other installation. */
async function bringReferences(copy: Copy, def: ResourceDef, row: Record<string, string>, depth: number): Promise<void> {
  for (const named of namedRelations(def, copy.registry)) {
    if (named.relation.foreignKey === def.parent?.foreignKey) continue;
    const id = row[named.relation.foreignKey];
    if (id === undefined || id === '' || row[named.column] === undefined || row[named.column] === '') continue;
    // A document whose lines no export carries cannot be brought along (see above), nor can a
    // record whose name others here share (the suites' sample tasks): an optional reference to one
    // (a purchase order's agreement, a task's parent) is left out of the file and of the comparison.
    const ambiguous = async () => Number((await copy.here.knex(named.target.table).where(named.by[0]!, row[named.column]).count({ n: '*' }).first())!.n) > 1;
    if ((unexportedLists(named.target).length > 0 || (await ambiguous())) && !def.fields.get(named.relation.foreignKey)?.required) {
      row[named.relation.foreignKey] = '';
      row[named.column] = '';
      continue;
    }
    await bringAlong(copy, named.target, Number(id), depth + 1);
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
  const find = async () => {
    const query = there.knex(def.table).where(by, record[by]).select('id').limit(2);
    if (def.softDelete) query.whereNull('deleted_at');
    if (def.parent) query.whereIn(def.parent.foreignKey, [await bringAlong(copy, registry.get(def.parent.resource), record[def.parent.foreignKey], depth + 1)]);
    const found = await query;
    return found.length === 1 ? Number(found[0].id) : undefined;
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
