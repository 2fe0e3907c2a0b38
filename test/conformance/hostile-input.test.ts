// Property-based: for every resource and every writable field, generated values (empty, blank,
// null, wrong types, huge and tiny numbers, long and odd strings, bad nested entries) on create
// and update never answer 5xx, always answer JSON with a message, and a refused request changes
// nothing. The seed is fixed in CI and random locally; fast-check prints it with a failure
// (FAST_CHECK_SEED=<seed> replays it).
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { FieldDef, ResourceDef } from '../../engine/definition/types.ts';
import { loadResources } from '../../src/app/build-app.ts';
import { databaseTargets } from '../helpers/targets.ts';
import { prepareContext, recordPath, type ResourceContext } from './context.ts';
import { validPayload } from './payloads.ts';

const SEED = Number(process.env.FAST_CHECK_SEED ?? (process.env.CI ? 20261123 : Date.now() % 2 ** 31));
const RUNS = Number(process.env.FAST_CHECK_RUNS ?? 4);

const oddStrings = fc.constantFrom(
  '',
  '   ',
  '\u0000',
  "'; DROP TABLE users; --",
  '😀'.repeat(300),
  'x'.repeat(70000),
  '\u202e\u200b',
  'NaN',
  '1e309',
  '-0',
  '2026-02-30',
  '9999-12-31T23:59:59+14:00',
);
// biome-ignore lint/correctness/noPrecisionLoss: numbers past what a double holds exactly are the point
const oddNumbers = fc.constantFrom(0, -1, 0.1, -2147483649, 2147483648, 4294967296, 2 ** 53 + 1, -(2 ** 53) - 1, 1e21, 1e308, -1e308, 5e-324, 99999999999.99999, 1e15);
const wrongTypes = fc.constantFrom<unknown>(null, true, false, [], {}, [null], [{}], { id: 'x' }, ['x'], [1.5], [-1], [0]);

/** Values a field should never store as they are: each may pass or fail validation, never break the service. */
function hostile(field: FieldDef): fc.Arbitrary<unknown> {
  const nested = fc.array(
    fc.dictionary(fc.constantFrom('id', 'product_id', 'product_qty', 'price_unit', 'taxes', 'name', 'quantity'), fc.oneof(oddNumbers, oddStrings, wrongTypes)),
    { maxLength: 3 },
  );
  const options: Array<fc.Arbitrary<unknown>> = [oddStrings, oddNumbers, wrongTypes, fc.string({ maxLength: 300 }), fc.double(), fc.integer()];
  if (field.type === 'records' || field.type === 'ids' || field.type === 'strings') {
    // Lists past their bound, and entries whose products overflow what the service computes.
    const big = fc.constantFrom(
      Array.from({ length: 1001 }, (_, i) => i + 1),
      Array.from({ length: 3 }, () => ({ product_id: 1, product_qty: 99999999999, price_unit: 99999999999, product_uom_qty: 99999999999 })),
    );
    options.push(nested, big, fc.array(oddNumbers, { maxLength: 5 }), fc.array(oddStrings, { maxLength: 3 }));
  }
  return fc.oneof(...options);
}

const registry = loadResources();
const writable = (def: ResourceDef) => [...def.fields.values()].filter((field) => field.writable);

for (const target of databaseTargets()) {
  const test = suite(`hostile input [${target.name}]`);
  const contexts = new Map<string, ResourceContext>();
  const context = async (def: ResourceDef) => {
    if (!contexts.has(def.name)) contexts.set(def.name, await prepareContext(def, registry, target));
    return contexts.get(def.name)!;
  };

  for (const def of registry.all().filter((d) => d.operations.has('create') || d.operations.has('update'))) {
    test(`${def.name}: no 5xx, a JSON message, nothing changed when refused (seed ${SEED})`, async () => {
      const ctx = await context(def);
      const rows = async () => Number((await ctx.app.knex(def.table).count({ n: '*' }).first())!.n);
      const existing = def.operations.has('create')
        ? (await ctx.client.post(ctx.listPath, { token: ctx.token, body: validPayload(def, ctx.payload, 300) })).body.data?.id
        : undefined;
      let n = 400;
      for (const field of writable(def)) {
        await fc.assert(
          fc.asyncProperty(hostile(field), async (value) => {
            if (def.operations.has('create')) {
              const before = await rows();
              const body = { ...validPayload(def, ctx.payload, n++), [field.name]: value };
              const response = await ctx.client.post(ctx.listPath, { token: ctx.token, body });
              assert.ok(response.status < 500, `POST ${field.name}=${JSON.stringify(value)?.slice(0, 80)}: ${response.status} ${response.text.slice(0, 200)}`);
              assert.ok(response.body !== null && typeof response.body === 'object', `POST ${field.name}: a JSON body`);
              if (response.status >= 400) {
                assert.type(response.body.message, 'string');
                assert.is(await rows(), before, `a refused POST wrote nothing (${field.name})`);
              }
            }
            if (def.operations.has('update') && existing !== undefined) {
              const before = await ctx.app.knex(def.table).where('id', existing).first();
              const response = await ctx.client.put(recordPath(ctx, existing), { token: ctx.token, body: { [field.name]: value } });
              assert.ok(response.status < 500, `PUT ${field.name}=${JSON.stringify(value)?.slice(0, 80)}: ${response.status} ${response.text.slice(0, 200)}`);
              if (response.status >= 400) {
                assert.type(response.body?.message, 'string');
                assert.equal(await ctx.app.knex(def.table).where('id', existing).first(), before, `a refused PUT changed nothing (${field.name})`);
              }
            }
          }),
          { seed: SEED, numRuns: RUNS, endOnFailure: true, includeErrorInReport: true },
        );
      }
    });
  }
  test.run();
}
