// Stored formulas (engine/keys/formula.ts): what a parsed expression gives, and when a write works it out. No database.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseFormula } from '../../engine/keys/formula-expression.ts';
import { applyFormulas, roundHalfAway } from '../../engine/keys/formula.ts';
import { toFieldDef } from '../../engine/definition/normalize.ts';
import type { ResourceDef } from '../../engine/definition/types.ts';

const test = suite('formula');
const run = (text: string, values: Record<string, number> = {}) => parseFormula(text).compute((name) => values[name] ?? 0);

test('numbers, fields, + - * /, unary minus and parentheses, with the usual precedence', () => {
  assert.is(run('price * (1 - discount / 100)', { price: 12.5, discount: 20 }), 10);
  assert.is(run('1 + 2 * 3 - -4 / 2'), 9);
  assert.is(run('-(a - b) * 2', { a: 1, b: 4 }), 6);
  assert.equal([...parseFormula('a * (b + a)').names], ['a', 'b']);
});

test('a division by zero gives null; a parse error says what is wrong', () => {
  assert.is(run('a / b', { a: 1 }), null);
  assert.is(run('1 + a / (b - b)', { a: 1, b: 2 }), null);
  for (const [text, message] of [
    ['a +', 'the expression ends too early'],
    ['(a', 'a "(" is not closed'],
    ['a b', 'unexpected "b"'],
    ['a % 2', 'unexpected "%"'],
    ['Math.max(a)', 'unexpected "M"'],
  ] as Array<[string, string]>)
    assert.throws(
      () => parseFormula(text),
      (error: Error) => error.message === message,
      text,
    );
});

test('rounded half away from zero', () => {
  assert.is(roundHalfAway(10.03125, 4), 10.0313);
  assert.is(roundHalfAway(-10.03125, 4), -10.0313);
  assert.is(roundHalfAway(1.005, 2), 1.01);
});

test('on create always; on update when a field it names is sent, the others as stored, a null as 0', () => {
  const fields = new Map(
    Object.entries({
      price: toFieldDef('price', { type: 'number' }),
      discount: toFieldDef('discount', { type: 'number', nullable: true }),
      note: toFieldDef('note', { type: 'string' }),
      net: { ...toFieldDef('net', { type: 'number', readOnly: true }), formula: { expression: 'price * (1 - discount / 100)', round: 2 } },
    }),
  );
  const def = { fields } as unknown as ResourceDef;
  const created = { values: { price: 10, discount: null } as Record<string, unknown> };
  applyFormulas(def, 'create', [created]);
  assert.is(created.values.net, 10);
  const record = { price: 10, discount: 0, net: 10 };
  const note = { values: { note: 'x' } as Record<string, unknown>, record };
  const discount = { values: { discount: 33.333 } as Record<string, unknown>, record };
  applyFormulas(def, 'update', [note, discount]);
  assert.is(note.values.net, undefined);
  assert.is(discount.values.net, 6.67);
});

test.run();
