// Quantities between units of one category: qty / from.factor × to.factor, rounded half-up to
// the target unit's rounding (1500 g → 1.5 kg).
import type { Knex } from 'knex';
import { roundTo } from '../accounts/money.ts';

export async function convertQuantity(trx: Knex.Transaction | Knex, quantity: number, fromId: number | null, toId: number | null): Promise<number> {
  if (!fromId || !toId || Number(fromId) === Number(toId)) return quantity;
  const units = await trx('unit_of_measures').whereIn('id', [fromId, toId]).select('id', 'factor', 'rounding', 'category_id');
  const from = units.find((unit) => Number(unit.id) === Number(fromId));
  const to = units.find((unit) => Number(unit.id) === Number(toId));
  if (!from || !to || from.category_id !== to.category_id || Number(from.factor) === 0) return quantity;
  const converted = (quantity / Number(from.factor)) * Number(to.factor);
  const rounding = Number(to.rounding) || 0;
  if (rounding <= 0) return converted;
  const decimals = Math.max(0, Math.ceil(-Math.log10(rounding)));
  return roundTo(roundTo(converted / rounding, 0) * rounding, decimals);
}
