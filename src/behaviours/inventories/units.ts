// Quantities between units of one category: qty / from.factor × to.factor, rounded half-up to
// the target unit's rounding (1500 g → 1.5 kg).
import type { Knex } from 'knex';
import { roundTo } from '../accounts/money.ts';

export interface Unit {
  id: number;
  factor: number;
  rounding: number;
  category_id: number;
}

export async function unitsById(trx: Knex.Transaction | Knex, ids: Iterable<unknown>): Promise<Map<number, Unit>> {
  const wanted = [...new Set([...ids].filter((id) => id != null).map(Number))];
  if (wanted.length === 0) return new Map();
  const rows = await trx('unit_of_measures').whereIn('id', wanted).select('id', 'factor', 'rounding', 'category_id');
  return new Map(rows.map((row) => [Number(row.id), { id: Number(row.id), factor: Number(row.factor), rounding: Number(row.rounding), category_id: Number(row.category_id) }]));
}

/** Converts with units already read (see unitsById); unknown units or another category leave the quantity as it is. */
export function convertWith(units: ReadonlyMap<number, Unit>, quantity: number, fromId: unknown, toId: unknown): number {
  if (fromId == null || toId == null || Number(fromId) === Number(toId)) return quantity;
  const from = units.get(Number(fromId));
  const to = units.get(Number(toId));
  if (!from || !to || from.category_id !== to.category_id || from.factor === 0) return quantity;
  const converted = (quantity / from.factor) * to.factor;
  if (to.rounding <= 0) return converted;
  const decimals = Math.max(0, Math.ceil(-Math.log10(to.rounding)));
  return roundTo(roundTo(converted / to.rounding, 0) * to.rounding, decimals);
}
