// A stored value worked out from the record's own numbers (`formula:` on a field, Odoo's
// compute + store + depends): `price * (1 - discount / 100)`. Parsed once at boot (the check
// below, formula-expression.ts) into a closure; written on create, and on an update that sends a
// field it names (the others read from the stored row), before the row is stored. A null operand
// counts as 0, a division by zero gives null, the result is rounded to `round` places.
import { Type } from '@sinclair/typebox';
import type { HookContext } from '../behaviours/types.ts';
import { didYouMean } from '../definition/suggest.ts';
import type { ResourceDef } from '../definition/types.ts';
import { formulaOf, type Read } from './formula-expression.ts';
import type { RuleKey } from './types.ts';
import { fieldsWhere } from '../definition/per-definition.ts';

const NUMERIC = new Set(['integer', 'number', 'decimal']);

export const formula: RuleKey = {
  key: 'formula',
  format: {
    at: 'field',
    schema: Type.Object(
      {
        expression: Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'numbers, numeric fields of the record, + - * /, unary minus and parentheses; a null operand counts as 0, a division by zero gives null',
        }),
        round: Type.Optional(Type.Integer({ minimum: 0, maximum: 12, description: 'decimal places the result is rounded to (half away from zero)' })),
      },
      {
        additionalProperties: false,
        description: 'a read-only number written on create, and on an update that sends a field it names (the others as stored)',
      },
    ),
  },
  writtenByEngine: true,
  check(def, _resources, problem) {
    for (const computed of formulaFields(def)) {
      const at = `fields.${computed.name}.formula`;
      if (!computed.readOnly) problem(at, 'a formula field is written by the engine: add readOnly: true');
      if (!NUMERIC.has(computed.type) || !computed.stored) problem(at, 'a formula gives a stored number (integer, number or decimal field)');
      try {
        for (const name of formulaOf(computed).names) {
          const operand = def.fields.get(name);
          if (!operand?.stored) problem(`${at}.expression`, `"${name}" is not a field of this resource${didYouMean(name, def.fields.keys())}`);
          else if (!NUMERIC.has(operand.type)) problem(`${at}.expression`, `"${name}" is not a numeric field (integer, number or decimal)`);
          else if (name === computed.name || operand.formula) problem(`${at}.expression`, `"${name}" is worked out by a formula itself`);
        }
      } catch (error) {
        problem(`${at}.expression`, `cannot be read: ${(error as Error).message}`);
      }
    }
  },
  describeField(_def, field) {
    if (!field.formula) return [];
    const { expression, round } = field.formula;
    return [`Worked out as \`${expression}\`${round === undefined ? '' : `, rounded to ${round} places`}, again when a field it names is sent.`];
  },
  step: {
    key: 'formula',
    uses: (def, _registry, phase) => phase !== 'remove' && formulaFields(def).length > 0,
    follows: (def) => formulaFields(def).flatMap((field) => [...formulaOf(field).names]),
    beforeCreate: (_context, def, hooks) => applyFormulas(def, 'create', hooks),
    beforeUpdate: (_context, def, hooks) => applyFormulas(def, 'update', hooks),
  },
};

/** The fields a resource works out with a formula, once per definition. */
const formulaFields = fieldsWhere((field) => field.formula);

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
