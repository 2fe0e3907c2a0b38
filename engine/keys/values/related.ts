// `related: relation.column` (Odoo's stored related fields): a copy of a column of the record a
// belongsTo relation names (a bank account's holder is its partner's name). It is written with
// the record whenever the relation's key is, and kept in sync when the source record changes
// through the API: one SELECT (for the change feed) and one UPDATE per copying resource, however
// many records copy it, in the source's transaction.
import type { Knex } from 'knex';
import type { ChangeSet } from '../../behaviours/change-set.ts';
import type { Registry } from '../../definition/registry.ts';
import type { FieldDef, ResourceDef } from '../../definition/types.ts';
import { nowTimestamp } from '../../serialize/value-formats.ts';
import { staleCopies } from '../../sql/related-copies.ts';
import { scopeConditions } from '../../sql/resource-rows.ts';
import { splitPath } from '../../definition/value-rules.ts';
import { type Entry, type ReferencedRows, sameStored } from './record-values.ts';

/** Writes the copy for the records whose key is written (every new record). */
export async function fillCopy(def: ResourceDef, field: FieldDef, rows: ReferencedRows, entries: readonly Entry[], mode: 'create' | 'update'): Promise<void> {
  const { via } = splitPath(def, field.related!);
  const writing = mode === 'create' ? entries : entries.filter((entry) => entry.values[via!] !== undefined);
  await rows.load(via!, writing);
  for (const entry of writing) entry.values[field.name] = rows.value(entry, field.related!);
}

/** Resources that copy columns of a table's records through one key: the copied column → the copy. */
interface Copiers {
  table: string;
  via: string;
  pairs: Array<{ field: string; column: string }>;
  /** The listable resources of the copying table that declare these copies: their changes go to the feed. */
  resources: ResourceDef[];
  timestamps: boolean;
}

const copiersByRegistry = new WeakMap<Registry, Map<string, Copiers[]>>();

/** Whether some resource copies columns of this one's records (its updates are followed). */
export function isCopied(registry: Registry, def: ResourceDef): boolean {
  return copiersOf(registry, def.table).length > 0;
}

/** The copies of each source table's columns, gathered once per registry. */
function copiersOf(registry: Registry, table: string): Copiers[] {
  let byTable = copiersByRegistry.get(registry);
  if (!byTable) {
    byTable = new Map();
    const groups = new Map<string, Copiers & { source: string }>();
    for (const def of registry.all()) {
      for (const field of def.fields.values()) {
        if (!field.related) continue;
        const relation = def.relations.get(field.related.split('.')[0]!)!;
        const source = registry.get(relation.resource).table;
        const { via, column } = splitPath(def, field.related);
        const key = `${source} ${def.table} ${via}`;
        if (!groups.has(key)) groups.set(key, { source, table: def.table, via: via!, pairs: [], resources: [], timestamps: def.timestamps });
        const group = groups.get(key)!;
        if (!group.pairs.some((pair) => pair.field === field.name)) group.pairs.push({ field: field.name, column });
        if (!group.resources.includes(def) && def.operations.has('list')) group.resources.push(def);
      }
    }
    for (const group of groups.values()) byTable.set(group.source, [...(byTable.get(group.source) ?? []), group]);
    copiersByRegistry.set(registry, byTable);
  }
  return byTable.get(table) ?? [];
}

export interface WrittenRow {
  id: number;
  /** The columns the update wrote. */
  columns: Record<string, unknown>;
  /** The row before it. */
  current?: Record<string, unknown>;
}

/** After records of `def` were updated: the copies of the columns that changed follow them. */
export async function syncCopies(trx: Knex.Transaction, registry: Registry, changes: ChangeSet, def: ResourceDef, written: readonly WrittenRow[]): Promise<void> {
  const copiers = copiersOf(registry, def.table);
  if (copiers.length === 0) return;
  // Without the row before (a set-based update), each column written counts: the UPDATE
  // touches only the copies that differ.
  const changed = (row: WrittenRow, column: string) => column in row.columns && (!row.current || !sameStored(row.columns[column], row.current[column]));
  for (const copier of copiers) {
    const pairs = copier.pairs.filter(({ column }) => written.some((row) => changed(row, column)));
    if (pairs.length === 0) continue;
    const ids = written.filter((row) => pairs.some(({ column }) => changed(row, column))).map((row) => row.id);
    const stale = staleCopies(trx, { source: def.table, ids, table: copier.table, via: copier.via, pairs });
    for (const resource of copier.resources) {
      const found = await stale.find(scopeConditions(resource, registry));
      if (found.length > 0)
        changes.add(
          resource.name,
          found,
          'updated',
          pairs.map(({ field }) => field),
        );
    }
    await stale.refresh(copier.timestamps ? nowTimestamp() : undefined);
  }
}
