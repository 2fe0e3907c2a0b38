// A stored value worked out from the record's own numbers (`formula:` on a field, Odoo's
// compute + store + depends): `price * (1 - discount / 100)`. Parsed once at boot (the check in
// engine/definition/rules-check.ts) into a closure; written on create, and on an update that sends
// a field it names (the others read from the stored row), before the row is stored. A null
// operand counts as 0, a division by zero gives null, the result is rounded to `round` places.
import type { HookContext } from '../behaviours/types.ts';
import type { FieldDef, ResourceDef } from '../definition/types.ts';

type Read = (name: string) => number;
type Compute = (read: Read) => number | null;

export interface Formula {
  /** The fields it reads. */
  names: Set<string>;
  compute: Compute;
}

/** Parses an expression of numbers, field names, + - * /, unary minus and parentheses; throws an Error saying what is wrong. */
export function parseFormula(text: string): Formula {
  const tokens = text.match(/\s+|\d+(?:\.\d+)?|[a-z][a-z0-9_]*|[-+*/()]|./g) ?? [];
  const list = tokens.filter((token) => !/^\s+$/.test(token));
  const names = new Set<string>();
  let at = 0;
  const peek = () => list[at];
  const expression = (): Compute => {
    let left = term();
    while (peek() === '+' || peek() === '-') {
      const op = list[at++];
      const a = left;
      const b = term();
      left = op === '+' ? both(a, b, (x, y) => x + y) : both(a, b, (x, y) => x - y);
    }
    return left;
  };
  const term = (): Compute => {
    let left = unary();
    while (peek() === '*' || peek() === '/') {
      const op = list[at++];
      const a = left;
      const b = unary();
      left = op === '*' ? both(a, b, (x, y) => x * y) : both(a, b, (x, y) => (y === 0 ? null : x / y));
    }
    return left;
  };
  const unary = (): Compute => {
    if (peek() === '-') {
      at++;
      const a = unary();
      return (read) => {
        const x = a(read);
        return x === null ? null : -x;
      };
    }
    return primary();
  };
  const primary = (): Compute => {
    const token = list[at++];
    if (token === undefined) throw new Error('the expression ends too early');
    if (token === '(') {
      const inner = expression();
      if (list[at++] !== ')') throw new Error('a "(" is not closed');
      return inner;
    }
    if (/^\d/.test(token)) {
      const value = Number(token);
      return () => value;
    }
    if (/^[a-z]/.test(token)) {
      names.add(token);
      return (read) => read(token);
    }
    throw new Error(`unexpected "${token}"`);
  };
  const compute = expression();
  if (at < list.length) throw new Error(`unexpected "${list[at]}"`);
  return { names, compute };
}

function both(a: Compute, b: Compute, op: (x: number, y: number) => number | null): Compute {
  return (read) => {
    const x = a(read);
    const y = b(read);
    return x === null || y === null ? null : op(x, y);
  };
}

const parsed = new WeakMap<FieldDef, Formula>();

/** The field's formula, parsed the first time it is asked for (the boot check asks first). */
export function formulaOf(field: FieldDef): Formula {
  let formula = parsed.get(field);
  if (!formula) parsed.set(field, (formula = parseFormula(field.formula!.expression)));
  return formula;
}

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
