// Every matching row of a resource, read in batches by keyset: each batch is the next `size` rows
// after the last one read, in the list's order (its sort, then id), so a batch costs the same at
// the millionth row as at the first and memory holds one batch at a time. Not a snapshot: a row
// written while the export runs may or may not be in it, but no unchanged row is missed or repeated.
// The reads themselves: engine/sql/export-reads.ts.
import { setImmediate } from 'node:timers/promises';
import type { ResourceDef, SortDef } from '../../definition/types.ts';
import type { Serialize } from '../../serialize/record.ts';
import { isOneOf } from '../../sql/conditions.ts';
import { batchAfter, linkedRows } from '../../sql/export-reads.ts';
import { quote, type Condition } from '../../sql/quote.ts';
import { resourceRows } from '../../sql/resource-rows.ts';
import type { Row, Statements } from '../../sql/statements.ts';
import type { IdList } from '../id-lists.ts';
import { namesById, padded } from './display-names.ts';
import type { ExportColumn } from './export-columns.ts';
import { linesByOwner, type Line, type LinesSource } from './export-lines.ts';

export const EXPORT_BATCH = 1000;

export interface ExportSource extends LinesSource {
  def: ResourceDef;
  serialize: Serialize;
  /** The rows to export: the list's conditions (scope, parent, row scope, filters, trashed). */
  conditions: readonly Condition[];
  /** The list's order; ends with id (parseListQuery adds it). */
  sort: readonly SortDef[];
  batchSize?: number;
}

/** The rows in order, batch by batch, each row as its values for `columns`. */
export async function* exportBatches(source: ExportSource, columns: readonly ExportColumn[]): AsyncGenerator<unknown[][]> {
  const size = source.batchSize ?? EXPORT_BATCH;
  let last: Row | undefined;
  for (;;) {
    const rows = await readBatch(source, last, size);
    if (rows.length === 0) return;
    const names = await displayNames(source.statements, columns, rows);
    const lines = await linesOf(source, columns, rows);
    const lists = await listsOf(source, columns, rows);
    yield rows.map((row) => {
      const record = source.serialize(row);
      return columns.map((column) => {
        if (column.kind === 'field') return record[column.name];
        if (column.kind === 'lines') return lines.get(column.name)!.get(Number(row.id)) ?? [];
        if (column.kind === 'ids') return lists.get(column.list.field.name)!.get(Number(row.id))?.ids ?? [];
        if (column.kind === 'names') return lists.get(column.list.field.name)!.get(Number(row.id))?.names ?? [];
        return names.get(column.name)!.get(Number(row[column.relation.foreignKey])) ?? null;
      });
    });
    if (rows.length < size) return;
    last = rows[rows.length - 1];
    // SQLite answers at once: without this the batches would follow one another without ever
    // letting the other requests (or the socket's writes) run.
    await setImmediate();
  }
}

function readBatch(source: ExportSource, last: Row | undefined, size: number): Promise<Row[]> {
  const { def } = source;
  return batchAfter(source.statements, def.table, source.columns(def), source.conditions, source.sort, last, size);
}

/** The lines of the batch's rows, per lines column: one query per column and batch. */
async function linesOf(source: ExportSource, columns: readonly ExportColumn[], rows: Row[]): Promise<Map<string, Map<number, Line[]>>> {
  const lines = new Map<string, Map<number, Line[]>>();
  const owners = rows.map((row) => Number(row.id));
  for (const column of columns) if (column.kind === 'lines') lines.set(column.name, await linesByOwner(source, column, owners));
  return lines;
}

interface Listed {
  ids: number[];
  names: unknown[];
}

/**
 * The lists of ids of the batch's rows (their tags), per field written as ids or names: one query
 * per field and batch, the records' names in the same query when asked. The live records, in the
 * order of their ids, as an include shows them.
 */
async function listsOf(source: ExportSource, columns: readonly ExportColumn[], rows: Row[]): Promise<Map<string, Map<number, Listed>>> {
  const wanted = new Map<string, { list: IdList; display?: string }>();
  for (const column of columns) {
    if (column.kind !== 'ids' && column.kind !== 'names') continue;
    const name = column.list.field.name;
    const entry = wanted.get(name) ?? { list: column.list };
    if (column.kind === 'names') entry.display = column.display;
    wanted.set(name, entry);
  }
  const lists = new Map<string, Map<number, Listed>>();
  const owners = padded(rows.map((row) => Number(row.id)));
  for (const [name, { list, display }] of wanted) {
    const byOwner = new Map<number, Listed>();
    lists.set(name, byOwner);
    const { target, relation } = list;
    const conditions: Condition[] = resourceRows(target, source.registry, {});
    for (const [column, value] of Object.entries(relation.where ?? {})) conditions.push(isOneOf(quote(`${target.table}.${column}`), [value].flat()));
    const pairs = await linkedRows(source.statements, relation.through, owners, target.table, conditions, display);
    for (const pair of pairs) {
      const owner = Number(pair.owner);
      let listed = byOwner.get(owner);
      if (!listed) byOwner.set(owner, (listed = { ids: [], names: [] }));
      listed.ids.push(Number(pair.target));
      if (display) listed.names.push(pair.display ?? null);
    }
  }
  return lists;
}

/** The display names of the batch's referenced records, per display column. */
async function displayNames(statements: Pick<Statements, 'all'>, columns: readonly ExportColumn[], rows: Row[]): Promise<Map<string, Map<number, unknown>>> {
  const names = new Map<string, Map<number, unknown>>();
  await Promise.all(
    columns.map(async (column) => {
      if (column.kind === 'display')
        names.set(
          column.name,
          await namesById(
            statements,
            column.target,
            column.display,
            rows.map((row) => row[column.relation.foreignKey]),
          ),
        );
    }),
  );
  return names;
}
