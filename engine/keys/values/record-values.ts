// What the value rules of a definition read from the records being written: their own fields
// (the value sent, else the stored one) and columns of the records their references name
// (`project.company_id`), read in one query per reference for every record of the write, so
// that the lines of an order cost what one line costs.
import type { Knex } from 'knex';
import type { Registry } from '../../definition/registry.ts';
import type { ResourceDef } from '../../definition/types.ts';
import { referencedResource, splitPath } from '../../definition/value-rules.ts';

/** One record of the write: the values being written, the stored row on update, its place among its owner's records. */
export interface Entry {
  values: Record<string, unknown>;
  record?: Record<string, unknown>;
  index?: number;
}

/** The field's value the record will have: the one written, else the stored one. */
export function own(entry: Entry, field: string): unknown {
  const written = entry.values[field];
  return written !== undefined ? written : (entry.record?.[field] ?? null);
}

/** The record's company (its `company_id`, written or stored), whose calendar dates it; null when the resource has none. */
export function companyOf(def: ResourceDef, entry: Entry): unknown {
  return def.fields.get('company_id')?.stored ? own(entry, 'company_id') : null;
}

/**
 * The rows the references of a write's records name, read once per reference field and id.
 * `columns` says, per reference field, what the rules read of its record.
 */
export class ReferencedRows {
  private readonly rows = new Map<string, Map<number, Record<string, unknown>>>();

  constructor(
    private readonly trx: Knex.Transaction,
    private readonly registry: Registry,
    private readonly def: ResourceDef,
    private readonly columns: ReadonlyMap<string, ReadonlySet<string>>,
  ) {}

  /** Reads what is not read yet of the records `field` names in these entries (one query at most). */
  async load(field: string, entries: readonly Entry[]): Promise<void> {
    const target = this.registry.get(referencedResource(this.def, this.def.fields.get(field)!)!);
    let known = this.rows.get(field);
    if (!known) this.rows.set(field, (known = new Map()));
    const ids = new Set<number>();
    for (const entry of entries) {
      const value = own(entry, field);
      for (const id of Array.isArray(value) ? value : [value]) if (id !== null && id !== undefined && !known.has(Number(id))) ids.add(Number(id));
    }
    if (ids.size === 0) return;
    const read = await this.trx(target.table)
      .whereIn('id', [...ids])
      .select(['id', ...(this.columns.get(field) ?? [])]);
    for (const row of read) known.set(Number(row.id), row);
  }

  /** Loads what the paths read through references. */
  async loadPaths(paths: Iterable<string>, entries: readonly Entry[]): Promise<void> {
    const via = new Set<string>();
    for (const path of paths) {
      const split = splitPath(this.def, path);
      if (split.via) via.add(split.via);
    }
    for (const field of via) await this.load(field, entries);
  }

  /** The row a reference field names (undefined when none, or not loaded). */
  row(field: string, id: unknown): Record<string, unknown> | undefined {
    return id === null || id === undefined ? undefined : this.rows.get(field)?.get(Number(id));
  }

  /** The value at a path (`uom_id`, `project.company_id`) for an entry; load its reference first. */
  value(entry: Entry, path: string): unknown {
    const { via, column } = splitPath(this.def, path);
    if (!via) return own(entry, column);
    return this.row(via, own(entry, via))?.[column] ?? null;
  }

  /** A message with its `{path}` placeholders filled from the entry. */
  fill(message: string, entry: Entry): string {
    return message.replace(/\{([a-zA-Z0-9_.]+)\}/g, (_, path: string) => String(this.value(entry, path) ?? ''));
  }
}

/** Whether a stored value equals a definition's value, as the database would compare them (booleans as 0/1, numbers as numbers). */
export function sameStored(stored: unknown, expected: unknown): boolean {
  if (stored === null || stored === undefined || expected === null || expected === undefined) return (stored ?? null) === (expected ?? null);
  if (typeof expected === 'boolean' || typeof stored === 'boolean') return Number(stored) === Number(expected);
  if (typeof expected === 'number' || typeof stored === 'number') return Number(stored) === Number(expected);
  return String(stored) === String(expected);
}
