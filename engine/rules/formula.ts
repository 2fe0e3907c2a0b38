// A stored value worked out from the record's own numbers (`formula:` on a field, Odoo's
// compute + store + depends): `price * (1 - discount / 100)`. Parsed once at boot (the check in
// engine/definition/rules-check.ts) into a closure; written on create, and on an update that sends
// a field it names (the others read from the stored row), before the row is stored. A null
// operand counts as 0, a division by zero gives null, the result is rounded to `round` places.
import type { HookContext } from '../behaviours/types.ts';
import { formulaOf, type Read } from '../definition/formula.ts';
import type { FieldDef, ResourceDef } from '../definition/types.ts';

const withFormulas = new WeakMap<ResourceDef, FieldDef[]>();

/** The fields a resource works out with a formula, once per definition. */
export function formulaFields(def: ResourceDef): FieldDef[] {
  let found = withFormulas.get(def);
  if (!found) withFormulas.set(def, (found = [...def.fields.values()].filter((field) => field.formula)));
  return found;
}

/** Writes each formula's value into the records of a write (an update only when it sends a field the formula reads). */
export function applyFormulas(def: ResourceDef, mode: 'create' | 'update', hooks: readonly Pick<HookContext, 'values' | 'record'>[]): void {
  for (const field of formulaFields(def)) {
    const formula = formulaOf(field);
    for (const { values, record } of hooks) {
      if (mode === 'update' && ![...formula.names].some((name) => values[name] !== undefined)) continue;
      const read: Read = (name) => Number((values[name] !== undefined ? values[name] : record?.[name]) ?? 0);
      const value = formula.compute(read);
      values[field.name] = value === null || !Number.isFinite(value) ? null : roundHalfAway(value, field.formula!.round);
    }
  }
}

/** Rounded half away from zero to `places` decimals (no rounding without them). */
export function roundHalfAway(value: number, places: number | undefined): number {
  if (places === undefined) return value;
  const factor = 10 ** places;
  // toPrecision(15) strips the representation error before rounding.
  const scaled = Number((Math.abs(value) * factor).toPrecision(15));
  return (Math.sign(value) * Math.round(scaled)) / factor || 0;
}
