// A document's lines for its export column (export-columns.ts, LinesColumn): the lines of a batch
// of documents in one query (those of the line's own kind and live, in the order the document
// shows them), each written as its create takes it, its id first (an import that updates the
// document keeps the line), each reference's display name beside its id and each list of ids
// (its taxes) as the ids and names of the records, so that an import into another installation
// finds the product and the taxes by name.
import type { Registry } from '../../definition/registry.ts';
import type { Serialize } from '../../serialize/record.ts';
import type { Columns } from '../../sql/columns.ts';
import { linesOfOwners, pivotPairs } from '../../sql/export-reads.ts';
import { resourceRows } from '../../sql/resource-rows.ts';
import type { Row, Statements } from '../../sql/statements.ts';
import { namesById, padded } from './display-names.ts';
import type { LineList, LinesColumn } from './export-columns.ts';

export interface LinesSource {
  registry: Registry;
  statements: Pick<Statements, 'all'>;
  columns: Columns;
  /** The serializer of a resource (the lines' own). */
  serializeOf(resource: string): Serialize;
}

export type Line = Record<string, unknown>;

/** owner id → its lines, for these owners (every owner has a list, empty when it has no line). */
export async function linesByOwner(source: LinesSource, column: LinesColumn, owners: readonly number[]): Promise<Map<number, Line[]>> {
  const byOwner = new Map<number, Line[]>(owners.map((id) => [id, []]));
  if (owners.length === 0) return byOwner;
  const { child, relation } = column;
  const sort = child.defaultSort.filter((by) => child.fields.get(by.name)?.stored || by.name === 'id');
  const rows = await linesOfOwners(source.statements, child.table, relation.foreignKey, padded([...owners]), source.columns(child), resourceRows(child, source.registry, {}), sort);
  const names = await Promise.all(
    column.references.map((reference) =>
      namesById(
        source.statements,
        reference.target,
        reference.display,
        rows.map((row) => row[reference.foreignKey]),
      ),
    ),
  );
  const lists = await Promise.all(column.lists.map((list) => listEntries(source, list, rows)));
  const serialize = source.serializeOf(child.name);
  for (const row of rows) {
    const written = line(column, serialize(row), row, names);
    column.lists.forEach((list, index) => {
      written[list.field.name] = lists[index]!.get(Number(row.id)) ?? [];
    });
    byOwner.get(Number(row[relation.foreignKey]))?.push(written);
  }
  return byOwner;
}

/** line id → its list's entries: `{id, <display>: name}` (the id alone when the target has no name). */
async function listEntries(source: LinesSource, list: LineList, rows: Row[]): Promise<Map<number, unknown[]>> {
  const byLine = new Map<number, unknown[]>();
  if (rows.length === 0) return byLine;
  const pairs = await pivotPairs(source.statements, list.relation.through!, padded(rows.map((row) => Number(row.id))));
  const names = list.display
    ? await namesById(
        source.statements,
        list.target,
        list.display,
        pairs.map((pair) => pair.target),
      )
    : undefined;
  for (const pair of pairs) {
    const id = Number(pair.target);
    const entry = names ? { id, [list.display!]: names.get(id) ?? null } : id;
    const line = Number(pair.line);
    let entries = byLine.get(line);
    if (!entries) byLine.set(line, (entries = []));
    entries.push(entry);
  }
  return byLine;
}

/** A line as its create takes it: its id, its fields, each reference's name after its id. */
function line(column: LinesColumn, record: Record<string, unknown>, row: Row, names: Array<Map<number, unknown>>): Line {
  const written: Line = { id: record.id };
  for (const field of column.fields) {
    written[field.name] = record[field.name] ?? null;
    column.references.forEach((reference, index) => {
      if (reference.foreignKey !== field.name) return;
      const id = row[field.name];
      written[reference.column] = id === null || id === undefined ? null : (names[index]!.get(Number(id)) ?? null);
    });
  }
  return written;
}
