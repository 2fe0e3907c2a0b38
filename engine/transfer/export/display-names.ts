// The display names of referenced records, for a batch of exported rows: one query per target
// and batch, never one per row. A trashed record keeps its name (as an include shows it).
import type { ResourceDef } from '../../definition/types.ts';
import { displayColumn } from '../../sql/export-reads.ts';
import type { Statements } from '../../sql/statements.ts';

/** id → the `display` column of each of these records of `target`. */
export async function namesById(statements: Pick<Statements, 'all'>, target: ResourceDef, display: string, references: readonly unknown[]): Promise<Map<number, unknown>> {
  const byId = new Map<number, unknown>();
  const ids = [...new Set(references.filter((id) => id !== null && id !== undefined))];
  if (ids.length === 0) return byId;
  const wanted = padded(ids);
  const found = await displayColumn(statements, target.table, display, wanted);
  for (const row of found) byId.set(Number(row.id), row.display ?? null);
  return byId;
}

/** Padded to a power of two with a repeated value: a few SQL texts to prepare, not one per batch. */
export function padded<T>(values: T[]): T[] {
  return values.concat(new Array(2 ** Math.ceil(Math.log2(values.length)) - values.length).fill(values[0]));
}
