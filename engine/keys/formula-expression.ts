// The expression of a `formula:` field (formula.ts: its key): numbers, the record's own field
// names, + - * /, unary minus and parentheses, parsed once into closures (never eval).
import type { FieldDef } from '../definition/types.ts';

export type Read = (name: string) => number;
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
