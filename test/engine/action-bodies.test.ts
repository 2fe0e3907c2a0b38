// An action's declared body (`body:`): how it resolves (a resource field's vocabulary, `like`
// another resource's field, lists of entries), the boot's refusals naming file, place and line,
// and its validation — without a database.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DefinitionError } from '../../engine/definition/definition-error.ts';
import { loadRegistry } from '../../engine/keys/registry.ts';
import type { Registry } from '../../engine/definition/registry.ts';
import { ValidationError } from '../../engine/errors/http-errors.ts';
import type { SchemaBounds } from '../../engine/schema/column-bounds.ts';
import { registerFormats } from '../../engine/schema/string-formats.ts';
import type { Statements } from '../../engine/sql/statements.ts';
import { compileBodyValidator } from '../../engine/validation/body-validator.ts';

const test = suite('action bodies');
const dirs: string[] = [];

// Lines 1-14; an action's body is appended from line 15 on.
const PAYMENTS = `table: payments
label: Payment
path: /support/payments
operations: [list, show]
fields:
  memo: { type: string, description: what the payment is for, example: Rent }
  amount: { type: decimal, scale: 4, readOnly: true, minimum: 0 }
  items: { type: records, relation: lines }
relations:
  lines: { kind: hasMany, resource: support/things, foreignKey: payment_id }
actions:
  settle:
    behaviour: support.settle
    message: Payment settled successfully.
`;
const THINGS = `table: things
label: Thing
path: /support/things
operations: [list, create]
fields:
  name: { type: string, required: true, maxLength: 100 }
  payment_id: { type: integer }
`;

function fixture(body: string, extra: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'erp-action-bodies-'));
  dirs.push(dir);
  const files = { 'support/payments.yaml': `${PAYMENTS}${body}`, 'support/things.yaml': THINGS, ...extra };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function load(body: string): Registry {
  return loadRegistry(fixture(body), new Set(), new Set(['support.settle']));
}

/** The problems the boot reports, as `file:line: place: message`. */
function problems(body: string): string[] {
  const dir = fixture(body);
  try {
    loadRegistry(dir, new Set(), new Set(['support.settle']));
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    const file = relative(process.cwd(), join(dir, 'support/payments.yaml'));
    return error.problems.map((problem) => `${problem.file === file ? '' : problem.file}:${problem.line}: ${problem.at}: ${problem.message}`);
  }
  throw new Error('the definitions loaded, but they should have been refused');
}

/** Statements that no check of these bodies needs: they name no record. */
const NO_DATABASE = new Proxy({}, { get: () => () => Promise.reject(new Error('no database here')) }) as unknown as Statements;

test.before(() => registerFormats());
test.after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test('a body resolves to fields in a resource field’s words; `like` takes a field’s rules, not whether it is required', () => {
  const registry = load(`    body:
      memo: { like: support/payments.memo, required: true, maxLength: 20 }
      amount: { like: support/payments.amount, description: at most what is due }
      paid_on: { type: date, until: due_on }
      due_on: { type: date }
      lines:
        type: records
        maxItems: 3
        fields:
          id: { type: integer, required: true, references: support/things }
          quantity: { type: number, required: true, minimum: 0.5 }
`);
  const body = registry.get('support/payments').actions.get('settle')!.body!;
  assert.equal([...body.fields.keys()], ['memo', 'amount', 'paid_on', 'due_on', 'lines']);
  const memo = body.fields.get('memo')!;
  assert.equal([memo.type, memo.required, memo.nullable, memo.maxLength, memo.description, memo.example], ['string', true, false, 20, 'what the payment is for', 'Rent']);
  assert.equal(memo.column, { table: 'payments', name: 'memo' }, 'bounded by the column it is like');
  const amount = body.fields.get('amount')!;
  assert.equal(
    [amount.type, amount.minimum, amount.readOnly, amount.scale, amount.writable],
    ['number', 0, undefined, undefined, true],
    'a decimal is a number; read-only is the field’s, not the rule’s',
  );
  const lines = body.fields.get('lines')!;
  assert.equal([lines.type, lines.maxItems, [...lines.entries!.fields.keys()]], ['records', 3, ['id', 'quantity']]);
  assert.equal(lines.entries!.fields.get('id')!.writable, true, 'an entry’s id is the client’s to send');
});

test('what a body may not say is refused at boot, naming the file, the line and the place', () => {
  const found = problems(`    body:
      a: { like: support/paymnts.memo }
      b: { like: support/payments.memoo }
      c: { like: support/payments.items }
      d: { type: records }
      e: { type: integer, fields: { x: { type: integer } } }
      f: { description: no type }
      g: { type: decimal }
      h: { type: integer, maxLength: 3 }
      i: { type: integer, references: support/thingz }
      j: { type: string, excludes: nothing }
`);
  assert.equal(found, [
    ':16: actions.settle.body.a.like: unknown resource "support/paymnts", did you mean "support/payments"?',
    ':17: actions.settle.body.b.like: "memoo" is not a field of support/payments, did you mean "memo"?',
    ':18: actions.settle.body.c.like: support/payments.items is a list of related records: like names a field of one value',
    ':19: actions.settle.body.d: a records list of a body needs `fields`: the fields of each entry',
    ':20: actions.settle.body.e.fields: fields applies to a records list',
    ':21: actions.settle.body.f: a body field needs a type, or `like` naming a field whose rules it takes',
    ':22: actions.settle.body.g.type: a body takes a number: decimal places belong to a stored column',
    ':23: actions.settle.body.h.maxLength: maxLength applies to string and text fields',
    ':24: actions.settle.body.i.references: unknown resource "support/thingz", did you mean "support/things"?',
    ':25: actions.settle.body.j.excludes: "nothing" is not a field of this body',
  ]);
});

test('an unknown key in a body field names it and the key meant', () => {
  const [problem] = problems(`    body:
      memo: { type: string, maxLenght: 3 }
`);
  assert.is(problem, ':16: actions.settle.body.memo.maxLenght: unknown key, did you mean "maxLength"?');
});

test('validation: every problem at once, named like a resource’s (moves.0.quantity), a `like` field bounded by its column', async () => {
  const registry = load(`    body:
      memo: { like: support/payments.memo }
      lines:
        type: records
        maxItems: 2
        fields:
          quantity: { type: number, required: true, minimum: 0.5 }
          note: { type: string }
`);
  const body = registry.get('support/payments').actions.get('settle')!.body!;
  const bounds: SchemaBounds = new Map([['payments', new Map([['memo', { nullable: false, maxLength: 5 }]])]]);
  const validator = compileBodyValidator(body, registry, bounds);
  const refused = await validator.validate({ memo: 'too long', lines: [{ quantity: 0.1 }, { note: 7 }] }, NO_DATABASE, { mode: 'create' }).catch((error) => error);
  assert.instance(refused, ValidationError);
  assert.equal(refused.body().errors, {
    memo: ['The memo field must not be greater than 5 characters.'],
    'lines.0.quantity': ['The lines.0.quantity field must be at least 0.5.'],
    'lines.1.quantity': ['The lines.1.quantity field is required.'],
    'lines.1.note': ['The lines.1.note field must be a string.'],
  });
  const tooMany = await validator.validate({ lines: [{ quantity: 1 }, { quantity: 1 }, { quantity: 1 }] }, NO_DATABASE, { mode: 'create' }).catch((error) => error);
  assert.equal(tooMany.body().errors, { lines: ['The lines field must not have more than 2 items.'] });
  // A null memo is accepted though its column is NOT NULL: the body's field is optional, the behaviour decides.
  assert.equal(await validator.validate({ memo: null, lines: [{ quantity: 2, note: ' x ' }] }, NO_DATABASE, { mode: 'create' }), {
    memo: null,
    lines: [{ quantity: 2, note: 'x' }],
  });
});

test.run();
